// Starts `regula lsp` for Regula game files. The language server does the work:
// diagnostics, hover, definitions, references, completion, outline, rename, formatting.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('regula').get('path') || 'regula';
  const server = { command, args: ['lsp'] };
  const options = {
    documentSelector: [
      { scheme: 'file', language: 'regula' },
      { scheme: 'untitled', language: 'regula' },
    ],
  };
  client = new LanguageClient('regula', 'Regula', server, options);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
