// Starts `deckbox lsp` for deck lists (the language `decklist`: `*.deck`, `*.ptcgl`,
// `*.ptcgo`, and `*.txt` under a `decks/` folder) and for JSON files under a `decks/` folder,
// which the server checks only when they read as a deck list; everything else is the
// server's (docs/editors.md).
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('deckbox').get('path') || 'deckbox';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'deckbox',
    'deckbox',
    { run: server, debug: server },
    {
      documentSelector: [
        { language: 'decklist' },
        { language: 'json', pattern: '**/decks/**/*.json' },
      ],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher('**/deckbox.toml'),
      },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
