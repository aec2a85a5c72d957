// What every browser script here shares, with no side effect on import:
// Debian Chromium's flags for a quiet headless run (docs/development.md)
// and a free loopback port for a server.
import { createServer } from 'node:net';

export const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}
