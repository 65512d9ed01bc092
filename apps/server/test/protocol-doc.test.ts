import { readFileSync } from 'node:fs';
import { CLIENT_EVENTS, ERROR_CODES, EventType, Role, SERVER_EVENTS, Snapshot } from '@bagh/protocol';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isInSync, PROTOCOL_DOC, renderSchemas, syncDoc } from '../src/tools/protocol-doc.js';

const doc = readFileSync(PROTOCOL_DOC, 'utf8');
const prose = doc.slice(0, doc.indexOf('<!-- BEGIN GENERATED'));

const fieldsOf = (schema: z.ZodType): string[] => {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
};

describe('docs/protocol.md', () => {
  it('carries the schemas exactly as @bagh/protocol defines them', () => {
    expect(isInSync(doc)).toBe(true);
    // What the generator writes is in sync too, before any formatting.
    expect(isInSync(syncDoc(doc))).toBe(true);
  });

  it('describes in prose every event, field, role and error code', () => {
    for (const [name, { request, reply }] of Object.entries(CLIENT_EVENTS)) {
      expect(prose).toContain(`\`${name}\``);
      for (const field of [...fieldsOf(request), ...fieldsOf(reply)])
        expect(prose, `${name}.${field}`).toContain(field);
    }
    for (const [name, schema] of Object.entries(SERVER_EVENTS)) {
      expect(prose).toContain(`\`${name}\``);
      for (const field of fieldsOf(schema)) expect(prose, `${name}.${field}`).toContain(field);
    }
    for (const field of fieldsOf(Snapshot)) expect(prose, `snapshot.${field}`).toContain(field);
    for (const type of EventType.options) expect(prose).toContain(`type: "${type}"`);
    for (const role of Role.options) expect(prose).toContain(`\`${role}\``);
    for (const code of ERROR_CODES) expect(prose, code).toMatch(new RegExp(`\\| \`${code}\` +\\|`));
  });

  it('fails when a schema changes', () => {
    const drifted = doc.replace('^[A-Za-z0-9_-]{6,32}$', '^[a-z]{6}$');
    expect(drifted).not.toBe(doc);
    expect(isInSync(drifted)).toBe(false);
    expect(isInSync(doc.replace('"RATE_LIMITED"', '"RATE_LIMITED", "TOO_SLOW"'))).toBe(false);
    expect(isInSync(doc.replace('- `NOT_ALLOWED`', ''))).toBe(false);
    expect(renderSchemas()).toContain('room:leave');
  });
});
