import { createServer, type Server, type Socket } from 'node:net';
import { BSON, type Document } from 'mongodb';

/**
 * The MongoDB wire protocol, server side, as far as the official driver needs it: OP_QUERY for
 * the first handshake (answered with OP_REPLY) and OP_MSG for everything after it.
 * See https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;

export interface WireCommand {
  /** The command's name: the first key of its document, as MongoDB reads it. */
  name: string;
  /** The database it was sent to (`$db` in OP_MSG, the namespace in OP_QUERY). */
  db: string;
  document: Document;
}

/** What to answer: a reply document, or 'hang' to never answer (a server that stopped responding). */
export type WireAnswer = Document | 'hang';

export interface WireServer {
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Listens on a free 127.0.0.1 port and answers every command with `answer`. */
export async function listenWire(answer: (command: WireCommand) => WireAnswer): Promise<WireServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const size = pending.readInt32LE(0);
        const message = pending.subarray(0, size);
        pending = pending.subarray(size);
        const reply = handle(message, answer);
        if (reply) socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function handle(message: Buffer, answer: (command: WireCommand) => WireAnswer): Buffer | null {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_QUERY) {
    const { command, db } = parseQuery(message);
    const reply = answer(command === null ? unknown() : { name: nameOf(command), db, document: command });
    return reply === 'hang' ? null : opReply(requestId, reply);
  }
  if (opCode === OP_MSG) {
    const { document, flags } = parseMsg(message);
    const db = String(document.$db ?? 'admin');
    const reply = answer({ name: nameOf(document), db, document });
    if (reply === 'hang' || flags & MORE_TO_COME) return null;
    return opMsg(requestId, reply);
  }
  return null;
}

const unknown = (): WireCommand => ({ name: '', db: '', document: {} });
const nameOf = (document: Document): string => Object.keys(document)[0] ?? '';

function parseQuery(message: Buffer): { command: Document | null; db: string } {
  let at = 20; // header (16) + flags (4)
  const end = message.indexOf(0, at);
  const namespace = message.toString('utf8', at, end);
  at = end + 1 + 8; // skip numberToSkip and numberToReturn
  const size = message.readInt32LE(at);
  const command = BSON.deserialize(message.subarray(at, at + size));
  return { command, db: namespace.split('.')[0] ?? 'admin' };
}

function parseMsg(message: Buffer): { document: Document; flags: number } {
  const flags = message.readUInt32LE(16);
  const end = message.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let at = 20;
  let document: Document = {};
  const sequences: Record<string, Document[]> = {};
  while (at < end) {
    const kind = message[at]!;
    at += 1;
    const size = message.readInt32LE(at);
    if (kind === 0) {
      document = BSON.deserialize(message.subarray(at, at + size));
    } else {
      // A document sequence (kind 1): e.g. the `documents` of an insert, sent beside the body.
      const nameEnd = message.indexOf(0, at + 4);
      const identifier = message.toString('utf8', at + 4, nameEnd);
      const docs: Document[] = [];
      for (let d = nameEnd + 1; d < at + size; d += message.readInt32LE(d)) {
        docs.push(BSON.deserialize(message.subarray(d, d + message.readInt32LE(d))));
      }
      sequences[identifier] = docs;
    }
    at += size;
  }
  return { document: { ...document, ...sequences }, flags };
}

function header(size: number, requestId: number, opCode: number): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(size, 0);
  head.writeInt32LE((requestId + 1) & 0x7fffffff, 4);
  head.writeInt32LE(requestId, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

function opReply(requestId: number, document: Document): Buffer {
  const body = Buffer.from(BSON.serialize(document));
  const fields = Buffer.alloc(20); // responseFlags, cursorId (8), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, requestId, OP_REPLY), fields, body]);
}

function opMsg(requestId: number, document: Document): Buffer {
  const body = Buffer.from(BSON.serialize(document));
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, then section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, OP_MSG), flagsAndKind, body]);
}
