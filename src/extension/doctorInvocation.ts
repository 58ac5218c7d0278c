// The `waypoint doctor` command line for the configured model (pure, so it is tested without VS Code). The key
// travels in the child's environment under a variable of its own, never in argv (other users can read a process's
// arguments) and never in an output.
import type { ModelSettingsConfig } from './settings.js';

/** The variable the extension puts the key in for the doctor child; --api-key-env names it. */
export const DOCTOR_KEY_ENV = 'WAYPOINT_DOCTOR_API_KEY';

export interface DoctorInvocation {
  /** Arguments after `dist/cli.mjs`. */
  args: string[];
  /** Added to the child's environment (the key variable is always set, empty when there is no key). */
  env: Record<string, string>;
  /** Said before the doctor's own lines. */
  intro: string;
}

export type DoctorEndpoint =
  /** provider "openai": the key stored for the base URL, if any. */
  | { kind: 'openai'; key?: string }
  /** provider "vscode-lm": the extension's loopback bridge to VS Code's Language Model API. */
  | { kind: 'vscode-lm'; baseUrl: string; token: string; model: string }
  | { kind: 'reference' };

export function doctorInvocation(model: ModelSettingsConfig, endpoint: DoctorEndpoint): DoctorInvocation {
  const keyed = (args: string[], key: string | undefined, intro: string): DoctorInvocation => ({
    args: ['doctor', ...args, '--api-key-env', DOCTOR_KEY_ENV],
    env: { [DOCTOR_KEY_ENV]: key ?? '', NO_COLOR: '1' },
    intro,
  });
  switch (endpoint.kind) {
    case 'reference':
      return keyed(['--model', model.provider === 'reference-flawed' ? 'reference-flawed' : 'reference'], undefined, `waypoint.model.provider is "${model.provider}": checking an in-process reference server (a scripted policy, not an LLM).`);
    case 'vscode-lm':
      return keyed(
        ['--model', `openai:${endpoint.model}`, '--base-url', endpoint.baseUrl],
        endpoint.token,
        `waypoint.model.provider is "vscode-lm": checking ${endpoint.model} through the extension's loopback bridge to VS Code's Language Model API (it lives as long as this window; the command line at the end does not apply outside it).`,
      );
    case 'openai':
      return keyed(['--model', `openai:${model.name}`, '--base-url', model.baseUrl], endpoint.key, `Checking waypoint.model.name "${model.name}" at waypoint.model.baseUrl ${model.baseUrl}${endpoint.key ? ' with the API key stored for it' : ' without an API key (none is stored for it)'}.`);
  }
}
