// Stdio entry of the .prompt language server (bundled to dist/lsp.js): `node dist/lsp.js --stdio`.
// The extension starts it through vscode-languageclient; tests speak LSP to it over the child's streams.
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { architectureManifests } from '../architectures/manifests.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { startServer } from './server.js';

startServer(createConnection(ProposedFeatures.all), { io: nodeIO, architectures: architectureManifests });
