// Public surface of the sandbox: the CodeSandbox contract and its Pyodide implementation.
export type { CodeSandbox, EpisodeResetReport, ReusableSandbox, RunCodeRequest, RunCodeResult, SandboxLimits } from './sandbox.js';
export { createPyodideSandbox, type PyodideSandboxOptions } from './pyodideSandbox.js';
export { pythonApiStubs } from './apiStubs.js';
