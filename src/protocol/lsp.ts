// Waypoint's custom language-server methods, declared once for the server (src/lsp/server.ts) and the extension's
// client, in the spirit of rust-analyzer's lsp_ext.ts. Each method is a descriptor: its name plus zod schemas for
// params and result, which each side parses at the process boundary.
//
// Why not a vscode-jsonrpc `RequestType` constant: vscode-languageserver 10 ships its own vscode-jsonrpc 9 while
// vscode-languageclient 11 uses vscode-jsonrpc 10, and RequestType has private members, so one constant cannot type
// on both sides (and importing it here would bundle a second jsonrpc into the server). Build the RequestType at the
// edge if wanted: `new RequestType<LastRunValuesParams, LastRunValuesResult, void>(LastRunValues.method)`.
import * as z from 'zod';

export interface RequestDescriptor<P extends z.ZodType, R extends z.ZodType> {
  method: string;
  params: P;
  result: R;
}

export const LastRunValuesParams = z.object({
  /** The .prompt document. */
  uri: z.string(),
});
export type LastRunValuesParams = z.infer<typeof LastRunValuesParams>;

export const LastRunValuesResult = z
  .object({
    runId: z.string(),
    /** Absolute path of the trace the values come from. */
    tracePath: z.string(),
    role: z.string(),
    turn: z.number().int(),
    /** The `variables` record of the run's last role_call for this prompt's waypoint.role. */
    variables: z.record(z.string(), z.unknown()),
  })
  .nullable();
export type LastRunValuesResult = z.infer<typeof LastRunValuesResult>;

/**
 * `waypoint/lastRunValues` {uri} -> the variable values of the latest run that called this prompt's role (newest
 * `.waypoint/runs/<id>/trace.jsonl` with a `role_call` of the file's waypoint.role, and the same architecture when
 * the trace names one), or null when there is none.
 */
export const LastRunValues = {
  method: 'waypoint/lastRunValues',
  params: LastRunValuesParams,
  result: LastRunValuesResult,
} as const satisfies RequestDescriptor<typeof LastRunValuesParams, typeof LastRunValuesResult>;
