import { TablebaseReply } from '@bagh/protocol';
import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n.svelte.js';
import Analysis from '../ui/Analysis.svelte';
import type { Analyser } from './analysis.js';
import { parseTableReply, TableProbe, tablePosition, tableView } from './tablebase.js';

afterEach(cleanup);

/** 20 goats placed with no capture, then two slides (the e2e test imports the same game). */
const SLIDING = [
  ...['G@b1', 'a1-b2', 'G@c4', 'e1-d1', 'G@c3', 'd1-d2', 'G@e2', 'b2-c1', 'G@c2', 'c1-d1', 'G@b3', 'd2-c1'],
  ...['G@b4', 'c1-d2', 'G@a1', 'd1-c1', 'G@d4', 'd2-d1', 'G@e3', 'c1-d2', 'G@b5', 'd1-c1', 'G@a3', 'd2-d1'],
  ...['G@e4', 'c1-d2', 'G@c5', 'd1-c1', 'G@d1', 'd2-d3', 'G@e1', 'c1-d2', 'G@d5', 'd2-c1', 'G@d2', 'c1-b2'],
  ...['G@c1', 'a5-a4', 'G@a2', 'a4-a5', 'a3-a4'],
];
const line = (moves: readonly string[] = SLIDING) => ({ variant: 'bagh-chal' as const, options: {}, moves });

describe('which positions the table is asked about', () => {
  it('from the 20th goat on, while the game goes on', () => {
    expect(tablePosition(line(), 38)).toBeNull(); // a goat still in hand
    expect(tablePosition(line(), 39)).toBe('1GGGT/TGGGG/GGGTG/GTGGG/GGGGG t 0 0');
    expect(tablePosition(line(), 40)).toBe('TGGGT/1GGGG/GGGTG/GTGGG/GGGGG g 0 0');
    expect(tablePosition(line(), 0)).toBeNull();
    expect(tablePosition({ ...line(), variant: 'bagh-guti' }, 41)).toBeNull();
    expect(tablePosition(line([...SLIDING.slice(0, 40), 'a1-a2']), 41)).toBeNull(); // does not replay
  });
});

describe('the table’s reply', () => {
  const good = {
    result: 'tiger',
    plies: 9,
    moves: [
      { move: 'a1-b2', result: 'tiger', plies: 9 },
      { move: 'c3xa3', result: 'draw' },
    ],
  };
  const samples: unknown[] = [
    good,
    { result: 'draw', moves: [] },
    { ...good, plies: 0 },
    null,
    'draw',
    { ...good, result: 'bagh' },
    { ...good, plies: -1 },
    { ...good, plies: 2.5 },
    { ...good, plies: '9' },
    { result: 'draw' },
    { ...good, moves: [{ move: '', result: 'draw' }] },
    { ...good, moves: [{ move: 'a1-b2', result: 'goat', plies: null }] },
    { ...good, moves: [null] },
  ];

  it('is checked to the same answers as the protocol’s schema', () => {
    for (const sample of samples)
      expect(parseTableReply(sample) !== null, JSON.stringify(sample)).toBe(
        TablebaseReply.safeParse(sample).success,
      );
    expect(samples.filter((sample) => parseTableReply(sample) !== null)).toHaveLength(3);
  });
});

describe('the table’s verdict in words', () => {
  it('says a win in the winner’s moves, a draw as one, and names the moves that keep it', () => {
    expect(
      tableView({
        result: 'tiger',
        plies: 9,
        moves: [
          { move: 'a1-b2', result: 'tiger', plies: 9 },
          { move: 'b1-c1', result: 'tiger', plies: 9 },
          { move: 'e5-d5', result: 'tiger', plies: 15 },
          { move: 'c3xa3', result: 'draw' },
        ],
      }),
    ).toEqual({ result: 'tiger', words: 'Tigers win in 5 moves', keep: ['a1-b2', 'b1-c1'] });
    expect(tableView({ result: 'goat', plies: 13, moves: [] }).words).toBe(
      'Goats trap the tigers in 7 moves',
    );
    expect(tableView({ result: 'goat', plies: 1, moves: [] }).words).toBe('Goats trap the tigers in 1 move');
    expect(tableView({ result: 'tiger', plies: 0, moves: [] }).words).toBe('Tigers have won');
    const draw = tableView({
      result: 'draw',
      moves: ['a', 'b', 'c', 'd'].map((file) => ({ move: `${file}1-${file}2`, result: 'draw' as const })),
    });
    expect(draw).toEqual({ result: 'draw', words: 'Draw with best play', keep: ['a1-a2', 'b1-b2', 'c1-c2'] });
  });

  it('in the player’s language, with its digits', async () => {
    await i18n.set('ne');
    try {
      expect(tableView({ result: 'goat', plies: 13, moves: [] }).words).toBe('बाख्राले ७ चालमा बाघ थुन्छन्');
      expect(tableView({ result: 'draw', moves: [] }).words).toBe('उत्तम खेलमा बराबरी');
    } finally {
      await i18n.set('en');
    }
  });

  it('for the losing side, the moves that lose the slowest', () => {
    const view = tableView({
      result: 'goat',
      plies: 12,
      moves: [
        { move: 'a1-b1', result: 'goat', plies: 12 },
        { move: 'a1-a2', result: 'goat', plies: 4 },
      ],
    });
    expect(view.keep).toEqual(['a1-b1']);
  });
});

/** What `fetch` answers, by position: a reply's JSON, or a status with an error body. */
function serving(answers: Record<string, { status: number; body: unknown }>) {
  return vi.fn(async (url: string) => {
    const position = new URL(url, 'http://bagh.test').searchParams.get('position') ?? '';
    const { status, body } = answers[position] ?? { status: 400, body: { error: { code: 'BAD_REQUEST' } } };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
}

describe('asking the server', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks once per position; a missing table (503) is asked again', async () => {
    const fetch = serving({
      'p t 0 0': { status: 200, body: { result: 'draw', moves: [] } },
      'odd t 0 0': { status: 200, body: { result: 'bagh', moves: [] } },
      'missing t 0 0': { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'no table' } } },
    });
    vi.stubGlobal('fetch', fetch);
    const probe = new TableProbe();
    expect(await probe.ask('p t 0 0')).toEqual({ result: 'draw', moves: [] });
    expect(await probe.ask('p t 0 0')).toEqual({ result: 'draw', moves: [] });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/tablebase?position=p%20t%200%200');
    expect(await probe.ask('bad')).toBeNull();
    expect(await probe.ask('bad')).toBeNull();
    expect(await probe.ask('odd t 0 0')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(3);
    await expect(probe.ask('missing t 0 0')).rejects.toThrow('HTTP 503');
    await expect(probe.ask('missing t 0 0')).rejects.toThrow('HTTP 503');
    expect(fetch).toHaveBeenCalledTimes(5);
  });
});

/** An engine that never answers: the panel's table part stands alone. */
const silent = { analyse: () => new Promise(() => {}), close() {} } as unknown as Analyser;

describe('the Analyse panel with the table', () => {
  it('shows the verdict and the moves that keep it, only once switched on', async () => {
    const reply = {
      result: 'tiger',
      plies: 3,
      moves: [
        { move: 'a4-a5', result: 'tiger', plies: 3 },
        { move: 'b2-a1', result: 'draw' },
      ],
    };
    const fetcher = vi.fn(async () => parseTableReply(reply));
    const table = new TableProbe(fetcher);
    const { container, getByRole } = render(Analysis, { game: line(), ply: 39, analyser: silent, table });
    await tick();
    expect(fetcher).not.toHaveBeenCalled();
    await fireEvent.click(getByRole('button', { name: 'Analyse' }));
    expect(fetcher).toHaveBeenCalledWith('1GGGT/TGGGG/GGGTG/GTGGG/GGGGG t 0 0');
    await table.ask('1GGGT/TGGGG/GGGTG/GTGGG/GGGGG t 0 0');
    await tick();
    const shown = container.querySelector('[data-table="tiger"]');
    expect(shown?.textContent).toContain('Tigers win in 2 moves');
    expect([...container.querySelectorAll('[data-keep]')].map((b) => b.textContent)).toEqual(['a4-a5']);
    expect(shown?.textContent).toContain('no-repeat rule');
  });

  it('says nothing when the server has no table', async () => {
    const table = new TableProbe(async () => Promise.reject(new Error('HTTP 503')));
    const { container, getByRole } = render(Analysis, { game: line(), ply: 40, analyser: silent, table });
    await fireEvent.click(getByRole('button', { name: 'Analyse' }));
    await table.ask('TGGGT/1GGGG/GGGTG/GTGGG/GGGGG g 0 0').catch(() => {});
    await tick();
    expect(container.querySelector('[data-table]')).toBeNull();
    expect(container.querySelector('.analysis')?.textContent).not.toContain('no-repeat');
  });
});
