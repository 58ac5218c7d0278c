// Client side of the simulator protocol (docs/simulator-protocol.md).
export { RemoteSimulator, SimulatorRpcError, type RemoteSimulatorOptions } from './remoteSimulator.js';
export { RpcClient, type RpcClientOptions } from './rpcClient.js';
export type { MessageTransport } from './transport.js';
export { createInProcessTransportPair } from './inProcessTransport.js';
export { ChildProcessTransport, type ChildProcessOptions } from './childProcessTransport.js';
export { WebSocketTransport } from './webSocketTransport.js';
export { StreamTransport } from './streamTransport.js';
export { splitCommandLine } from './commandLine.js';
