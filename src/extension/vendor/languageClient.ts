// Entry of dist/languageClient.js: vscode-languageclient in a bundle of its own, required when the first .prompt
// file opens, so activation does not parse ~0.9 MB of LSP client code that many sessions never use.
export { LanguageClient, TransportKind } from 'vscode-languageclient/node';
