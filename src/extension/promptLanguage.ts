// Which documents are Waypoint prompts. The language id is `prompt`, which VS Code >= 1.100 also gives Copilot's
// `.prompt.md` files (built-in prompt-basics), so every selector also requires the `.prompt` file name.
import type * as vscode from 'vscode';

// Not 'prompt': VS Code 1.100 ships that id for Copilot's .prompt.md files and runs its own checks on it.
export const PROMPT_LANGUAGE_ID = 'waypoint-prompt';

/** Plain filters, usable as a vscode DocumentSelector and as the language client's. */
export const PROMPT_SELECTOR: { language: string; scheme: string; pattern?: string }[] = [
  { language: PROMPT_LANGUAGE_ID, scheme: 'file', pattern: '**/*.prompt' },
  { language: PROMPT_LANGUAGE_ID, scheme: 'untitled' },
];

export function isWaypointPrompt(doc: Pick<vscode.TextDocument, 'languageId' | 'uri'> | undefined): boolean {
  return doc !== undefined && doc.languageId === PROMPT_LANGUAGE_ID && (doc.uri.scheme === 'untitled' || /\.prompt$/i.test(doc.uri.path));
}
