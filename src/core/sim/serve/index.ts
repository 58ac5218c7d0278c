// Server side of the simulator protocol: expose any Simulator over a transport, stdio or WebSocket.
export { serveSimulator, type CodeExecutingSimulator, type ServeOptions, type SimulatorServer } from './serveSimulator.js';
export { listenWebSocket, type WebSocketListenOptions, type WebSocketSimServer } from './webSocketServer.js';
export { StreamTransport } from '../remote/streamTransport.js';
