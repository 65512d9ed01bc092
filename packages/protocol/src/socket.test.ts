import { describe, expect, it } from 'vitest';
import { AckError } from './errors.js';
import { GameResult, GameResultReason, ResultReason } from './snapshot.js';
import {
  ChatMessage,
  ChatRequest,
  ChatText,
  CLIENT_EVENT_NAMES,
  CLIENT_EVENTS,
  isClientEvent,
  parseRequest,
  SERVER_EVENTS,
} from './socket.js';

const text = (value: string) => ChatText.safeParse(value);

describe('ChatText', () => {
  it('keeps ordinary text, emoji with joiners, and Devanagari/Bengali with their joiners', () => {
    for (const kept of [
      'good luck, have fun',
      'नमस्ते, बाघ चाल खेलौं',
      'ক্ষ্‍ বাঘবন্দী', // with a zero-width joiner
      'र्‍य',
      '👩‍👩‍👧 🐅🐐 👍🏽',
      '«quoted» — “fine” ‘too’',
    ]) {
      expect(text(kept)).toEqual({ success: true, data: kept });
    }
  });

  it('strips C0/C1 controls and the bidi marks, overrides and isolates', () => {
    expect(text('evil\u202Etxt.exe')).toEqual({ success: true, data: 'eviltxt.exe' });
    expect(text('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\u009Bg')).toEqual({ success: true, data: 'abcde fg' });
    expect(text('\u2066isolated\u2069 \u202Aembedded\u202C \u200Fmark\u200E \u061Cx')).toEqual({
      success: true,
      data: 'isolated embedded mark x',
    });
    expect(text('two\nlines\r\n\tand a tab')).toEqual({ success: true, data: 'two lines and a tab' });
  });

  it('strips what shows nothing (zero-width space, word joiner, soft hyphen, fillers, lone surrogates) and cuts mark stacks', () => {
    expect(text('a\u200Bb\u2060c\u00ADd\uFEFFe\u3164f\uD800g\u206Ah')).toEqual({
      success: true,
      data: 'abcdefgh',
    });
    for (const empty of ['\u200B\u2060', '\u3164\u3164', '\u00AD', '\uDC00'])
      expect(text(empty).success).toBe(false);
    const zalgo = `Z${'\u0301\u0316'.repeat(20)}!`;
    expect(text(zalgo)).toEqual({ success: true, data: `Z${'\u0301\u0316'.repeat(4)}!` });
    const flag = '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'; // Scotland: tag characters stay
    expect(text(flag)).toEqual({ success: true, data: flag });
  });

  it('refuses a text with nothing left once controls are removed, and stays 1–500 characters', () => {
    expect(text('\u202E\u202D\u0000').success).toBe(false);
    expect(text(' \u2066 \u2069 ').success).toBe(false);
    expect(text('').success).toBe(false);
    expect(text('x'.repeat(501)).success).toBe(false);
    expect(text(` ${'x'.repeat(500)} `).success).toBe(true);
  });

  it('is what a chat request carries', () => {
    const parsed = ChatRequest.parse({ roomId: 'abcdefghijkl', channel: 'players', text: 'hi\u202E!' });
    expect(parsed.text).toBe('hi!');
  });
});

describe('the event registry', () => {
  it('names every client event once, and nothing inherited', () => {
    expect(CLIENT_EVENT_NAMES).toEqual(Object.keys(CLIENT_EVENTS));
    expect(CLIENT_EVENT_NAMES).toContain('chat:send');
    for (const name of CLIENT_EVENT_NAMES) expect(isClientEvent(name)).toBe(true);
    for (const name of ['__proto__', 'toString', 'constructor', 'room:event', '', 5, null]) {
      expect(isClientEvent(name)).toBe(false);
    }
  });

  it("parses a payload with its event's schema", () => {
    const chat = parseRequest('chat:send', { roomId: 'abcdefghijkl', channel: 'players', text: ' hi ' });
    expect(chat.success && chat.data.text).toBe('hi');
    expect(parseRequest('move', { roomId: 'abcdefghijkl', move: 'G@c3' }).success).toBe(false);
    expect(parseRequest('abandon:claim', { roomId: 'abcdefghijkl', outcome: 'lose' }).success).toBe(false);
  });

  it('every server event has a payload schema; a chat message comes from a role only', () => {
    expect(Object.keys(SERVER_EVENTS)).toEqual(['room:event', 'chat:message', 'seat:assigned']);
    const message = { roomId: 'abcdefghijkl', channel: 'players', from: 'tiger', text: 'gl', at: 1 };
    expect(ChatMessage.safeParse(message).success).toBe(true);
    expect(ChatMessage.safeParse({ ...message, from: 'admin' }).success).toBe(false);
  });

  it("a failed ack may carry the room's version; the fields it had stay as they were", () => {
    const error = { code: 'STALE', message: 'behind' } as const;
    expect(AckError.parse({ ok: false, error, version: 7 })).toEqual({ ok: false, error, version: 7 });
    expect(AckError.parse({ ok: false, error })).toEqual({ ok: false, error });
    expect(AckError.safeParse({ ok: false, error, version: -1 }).success).toBe(false);
  });

  it('a result reason is one of the closed set', () => {
    expect(GameResult.safeParse({ winner: null, reason: 'agreement' }).success).toBe(true);
    expect(GameResult.safeParse({ winner: null, reason: 'Agreement' }).success).toBe(false);
    expect(GameResultReason.options).toEqual([...ResultReason.options, '']);
  });
});
