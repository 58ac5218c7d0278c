// A Disposable base with _register (vscode-extension-samples' dispose.ts): subclasses hand over what they own and
// dispose() releases it once, last registered first.
import type * as vscode from 'vscode';

export abstract class Disposable {
  private disposed = false;
  private readonly owned: vscode.Disposable[] = [];

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) d.dispose();
  }
}
