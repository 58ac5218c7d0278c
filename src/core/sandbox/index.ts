// Public surface of the sandbox: the CodeSandbox contract, its Pyodide implementation, and the trusted-workspace
// runner in the user's own python3 (hostPython.ts: no sandbox).
export type { CodeSandbox, EpisodeResetReport, ReusableSandbox, RunCodeRequest, RunCodeResult, SandboxLimits } from './sandbox.js';
export { createPyodideSandbox, type PyodideSandboxOptions } from './pyodideSandbox.js';
export { pythonApiStubs } from './apiStubs.js';
export { createHostPythonSandbox, HOST_PYTHON_WARNING, type HostPythonOptions } from './hostPython.js';
