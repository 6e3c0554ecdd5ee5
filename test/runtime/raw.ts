import { connect, type Socket } from 'node:net';

/** A raw TCP connection to the server, for requests sent piece by piece. */
export interface RawConnection {
  socket: Socket;
  send(text: string): void;
  /** Everything received until the server closed the connection. */
  closed: Promise<string>;
}

export async function openRaw(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (b: Buffer) => (received += b.toString()));
  const closed = new Promise<string>((resolve) => {
    socket.once('close', () => resolve(received));
    socket.on('error', () => undefined);
  });
  return { socket, send: (text) => socket.write(text), closed };
}

/** True once a new connection to `url` is refused: the listener is closed. */
export async function refuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

/** The head of a JSON POST with its length, without the body. */
export function postHead(path: string, key: string, length: number, extra = ''): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
}

/** Status line and headers of a raw answer, parsed just enough for assertions. */
export function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
