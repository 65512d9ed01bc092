/**
 * Keeps docs/protocol.md in step with the zod schemas of @bagh/protocol: the schema sections of
 * the document are generated here (zod 4 → JSON Schema); a test fails when they differ.
 *   node dist/tools/protocol-doc.js --write   rewrites the generated sections
 *   node dist/tools/protocol-doc.js --check   exits 1 when the document is out of date
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AckError,
  CLIENT_EVENT_NAMES,
  CLIENT_EVENTS,
  CreateRoomBody,
  CreateRoomReply,
  ERROR_CODES,
  ErrorBody,
  GamesQuery,
  GamesReply,
  ImportRecordBody,
  ImportRecordReply,
  LiveReply,
  RoomParams,
  SERVER_EVENTS,
  Snapshot,
  TablebaseQuery,
  TablebaseReply,
} from '@bagh/protocol';
import { z } from 'zod';

export const PROTOCOL_DOC = fileURLToPath(new URL('../../../../docs/protocol.md', import.meta.url));

const BEGIN =
  '<!-- BEGIN GENERATED SCHEMAS: do not edit by hand; run `pnpm --filter @bagh/server protocol-doc` -->';
const END = '<!-- END GENERATED SCHEMAS -->';

/** JSON with small leaves kept on one line, so a schema reads like a type. */
function compact(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat.length <= 72 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((v) => inner + compact(v, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compact(v, inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

/** A schema as JSON Schema; requests as accepted (`input`), replies as sent (`output`). */
function block(title: string, schema: z.ZodType, io: 'input' | 'output'): string {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return `#### ${title}\n\n\`\`\`json\n${compact(json)}\n\`\`\`\n`;
}

/** The generated part of the document. */
export function renderSchemas(): string {
  const parts: string[] = ['### Error codes\n', ERROR_CODES.map((code) => `- \`${code}\``).join('\n'), ''];
  parts.push('### HTTP\n');
  parts.push(block('POST /api/rooms — request body (`CreateRoomBody`)', CreateRoomBody, 'input'));
  parts.push(block('POST /api/rooms — 201 reply (`CreateRoomReply`)', CreateRoomReply, 'output'));
  parts.push(block('GET /api/rooms/:roomId — path parameters (`RoomParams`)', RoomParams, 'input'));
  parts.push(block('GET /api/rooms/:roomId — 200 reply (`Snapshot`)', Snapshot, 'output'));
  parts.push(block('GET /api/live — 200 reply (`LiveReply`)', LiveReply, 'output'));
  parts.push(block('GET /api/games — query (`GamesQuery`)', GamesQuery, 'input'));
  parts.push(block('GET /api/games — 200 reply (`GamesReply`)', GamesReply, 'output'));
  parts.push(block('POST /api/records — request body (`ImportRecordBody`)', ImportRecordBody, 'input'));
  parts.push(block('POST /api/records — 201 reply (`ImportRecordReply`)', ImportRecordReply, 'output'));
  parts.push(block('GET /api/tablebase — query (`TablebaseQuery`)', TablebaseQuery, 'input'));
  parts.push(block('GET /api/tablebase — 200 reply (`TablebaseReply`)', TablebaseReply, 'output'));
  parts.push(block('Every 4xx reply (`ErrorBody`)', ErrorBody, 'output'));
  // The registry of @bagh/protocol, the one the server registers its handlers from.
  parts.push('### Socket.IO: client → server\n');
  for (const name of CLIENT_EVENT_NAMES) {
    const { request, reply } = CLIENT_EVENTS[name];
    parts.push(block(`\`${name}\` — payload`, request, 'input'));
    parts.push(block(`\`${name}\` — ack on success`, reply, 'output'));
  }
  parts.push(block('Every ack on failure (`AckError`)', AckError, 'output'));
  parts.push('### Socket.IO: server → client\n');
  for (const [name, schema] of Object.entries(SERVER_EVENTS))
    parts.push(block(`\`${name}\``, schema, 'output'));
  return `${BEGIN}\n\n${parts.join('\n').trim()}\n\n${END}`;
}

function generatedSection(document: string): { start: number; end: number } {
  const start = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the document has no generated section (${BEGIN} … ${END})`);
  return { start, end: end + END.length };
}

/** The document with its generated section replaced by a fresh one. */
export function syncDoc(document: string): string {
  const { start, end } = generatedSection(document);
  return document.slice(0, start) + renderSchemas() + document.slice(end);
}

/**
 * A section's meaning, whatever the formatter did to it: each JSON block parsed and written
 * compactly, every run of white space made one space.
 */
function normalise(section: string): string {
  return section
    .replace(
      /```json\n([\s\S]*?)\n```/g,
      (_, body: string) => `\`\`\`json ${JSON.stringify(JSON.parse(body))} \`\`\``,
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether the document's generated section says what the schemas say (formatting aside). */
export function isInSync(document: string): boolean {
  const { start, end } = generatedSection(document);
  return normalise(document.slice(start, end)) === normalise(renderSchemas());
}

/** Formats the document the way `pnpm lint` wants it, when biome is at hand (best effort). */
function format(path: string): void {
  const biome = fileURLToPath(new URL('../../../../node_modules/.bin/biome', import.meta.url));
  if (existsSync(biome)) spawnSync(biome, ['format', '--write', path], { stdio: 'ignore' });
}

function main(args: readonly string[]): number {
  const path = args.find((a) => !a.startsWith('--')) ?? PROTOCOL_DOC;
  const current = readFileSync(path, 'utf8');
  const inSync = isInSync(current);
  if (args.includes('--write')) {
    if (!inSync) {
      writeFileSync(path, syncDoc(current));
      format(path);
    }
    process.stdout.write(`${path}: ${inSync ? 'up to date' : 'updated'}\n`);
    return 0;
  }
  if (!inSync) {
    process.stderr.write(`${path} is out of date with @bagh/protocol; run with --write\n`);
    return 1;
  }
  process.stdout.write(`${path}: up to date\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
