// The Agents view: architectures -> topologies, role prompt files (workspace override or built-in) and variants;
// the workspace's own architectures beside the built-ins, and an error item for each folder the loader refused.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { architectures } from '../../architectures/registry.js';
import type { Ctx } from '../ctx.js';
import { buildAgentsTree, type AgentNode } from './agentsModel.js';

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

export class AgentsTreeProvider implements vscode.TreeDataProvider<AgentNode> {
  private readonly emitter = new vscode.EventEmitter<AgentNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  async getChildren(node?: AgentNode): Promise<AgentNode[]> {
    if (node) return node.kind === 'arch' || node.kind === 'folder' ? node.children : [];
    const root = this.ctx.workspaceRoot();
    // The workspace's own architectures may still be loading.
    await this.ctx.architectures.ready();
    const archs = architectures.list();
    const overrides = new Set<string>();
    if (root) {
      for (const a of archs) for (const r of a.roles) if (await exists(join(root, 'prompts', a.id, r.promptFile))) overrides.add(`${a.id}/${r.promptFile}`);
    }
    const { loadVariantsAt } = await import('../prompt/variantsIo.js');
    const variants = await loadVariantsAt(root);
    if (variants.error) this.ctx.output.warn(variants.error);
    return buildAgentsTree(archs, { workspacePromptRoot: root ? join(root, 'prompts') : undefined, builtInPromptRoot: this.ctx.builtInPromptRoot, overrides }, variants.set, this.ctx.architectures.last.refused);
  }

  getTreeItem(node: AgentNode): vscode.TreeItem {
    switch (node.kind) {
      case 'arch': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        Object.assign(item, { id: node.id, description: node.description, tooltip: node.tooltip, iconPath: new vscode.ThemeIcon('hubot'), contextValue: 'waypoint.arch' });
        return item;
      }
      case 'folder': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        const icon = node.label === 'Prompts' ? 'files' : node.label === 'Variants' ? 'beaker' : 'type-hierarchy';
        Object.assign(item, { id: node.id, iconPath: new vscode.ThemeIcon(icon) });
        return item;
      }
      case 'topology': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        Object.assign(item, { id: node.id, description: node.description, tooltip: node.tooltip, iconPath: new vscode.ThemeIcon('organization') });
        return item;
      }
      case 'prompt': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        const uri = vscode.Uri.file(node.path);
        Object.assign(item, {
          id: node.id,
          description: node.description,
          tooltip: node.tooltip,
          resourceUri: uri,
          iconPath: new vscode.ThemeIcon(node.override ? 'file-code' : 'lock'),
          contextValue: node.override ? 'waypoint.prompt.workspace' : 'waypoint.prompt.builtin',
          command: { command: 'vscode.open', title: 'Open Prompt', arguments: [uri] },
        });
        return item;
      }
      case 'error': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        const uri = vscode.Uri.file(node.path);
        const at = new vscode.Range(node.line - 1, 0, node.line - 1, 0);
        Object.assign(item, {
          id: node.id,
          description: node.description,
          tooltip: node.tooltip,
          iconPath: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
          contextValue: 'waypoint.arch.refused',
          command: { command: 'vscode.open', title: 'Open', arguments: [uri, { selection: at }] },
        });
        return item;
      }
      case 'variant': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        Object.assign(item, {
          id: node.id,
          description: node.description,
          tooltip: node.tooltip,
          iconPath: new vscode.ThemeIcon(node.active ? 'pass-filled' : 'circle-large-outline'),
          contextValue: 'waypoint.variant',
          command: node.active ? undefined : { command: 'waypoint.selectVariant', title: 'Make Active', arguments: [node.name] },
        });
        return item;
      }
    }
  }
}
