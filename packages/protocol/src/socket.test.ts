import { describe, expect, it } from 'vitest';
import { ChatRequest, ChatText } from './socket.js';

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
