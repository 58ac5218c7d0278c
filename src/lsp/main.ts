// Stdio entry of the .prompt language server (bundled to dist/lsp.js): `node dist/lsp.js --stdio`.
// The extension starts it through vscode-languageclient; tests speak LSP to it over the child's streams.
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { architectureManifests } from '../architectures/manifests.js';
import { ARCHITECTURE_PATH_ENV, architectureRoots, refusalLine, reloadWorkspaceArchitectures } from '../core/architecture/workspace.js';
import { compileAndImport } from '../core/node/loadModule.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { startServer } from './server.js';

/** Ids of the workspace architectures the last load added to the manifests (taken out before the next load). */
let loaded: string[] = [];

startServer(createConnection(ProposedFeatures.all), {
  io: nodeIO,
  architectures: architectureManifests,
  // The workspace's own architectures, loaded as the CLI loads them; only their manifests matter here.
  loadArchitectures: async ({ folders, paths }) => {
    const { workspace, roots } = architectureRoots(folders, paths, process.env[ARCHITECTURE_PATH_ENV]);
    const r = await reloadWorkspaceArchitectures(nodeIO, architectureManifests, loaded, { ...(workspace !== undefined ? { workspace } : {}), extraRoots: roots, load: compileAndImport });
    loaded = r.loaded.map((l) => l.def.id);
    return r.refused.map(refusalLine);
  },
});
