/**
 * The "How to play" pages: static HTML, one per variant and language, written by the build
 * (vite.config.ts, howToPlayPages) from the `howto_*` messages, with SVG diagrams drawn here.
 * They run no script: the app's bundle does not grow with the rules' text, and the text stays
 * out of the message chunks a room loads.
 */
import { HOW_TO_PLAY_VARIANTS } from './paths.js';

export type HowToPlayVariant = (typeof HOW_TO_PLAY_VARIANTS)[number];
/** A language's message by key, its `{name}` placeholders filled from `inputs`. */
export type Text = (key: string, inputs?: Readonly<Record<string, string>>) => string;

/** A point such as "c3" (RULES.md R1) as drawn: column a → left, row 1 → bottom. */
function at(point: string): { x: number; y: number } {
  const column = point.charCodeAt(0) - 97;
  const row = Number(point.slice(1)) - 1;
  return { x: 20 + column * 40, y: 20 + (4 - row) * 40 };
}

interface Diagram {
  /** The alquerque board's diagonals (R2). */
  readonly diagonals: boolean;
  readonly tigers: readonly string[];
  /** Goats by point: a number above 1 is a stack (R21). */
  readonly goats: Readonly<Record<string, number>>;
  /** A jump drawn as an arrow from the first point to the last, the goat taken crossed out. */
  readonly jump?: readonly [from: string, over: string, to: string];
}

const line = (a: string, b: string): string => {
  const p = at(a);
  const q = at(b);
  return `<line x1="${p.x}" y1="${p.y}" x2="${q.x}" y2="${q.y}"/>`;
};

/** A small board as SVG, labelled by `caption` for screen readers too. */
export function diagramSvg(diagram: Diagram, caption: string): string {
  const lines: string[] = [];
  for (const n of [1, 2, 3, 4, 5]) lines.push(line(`a${n}`, `e${n}`));
  for (const c of 'abcde') lines.push(line(`${c}1`, `${c}5`));
  if (diagram.diagonals) {
    for (const [a, b] of [
      ['a1', 'e5'],
      ['a5', 'e1'],
      ['a3', 'c5'],
      ['c5', 'e3'],
      ['e3', 'c1'],
      ['c1', 'a3'],
    ] as const)
      lines.push(line(a, b));
  }
  const pieces: string[] = [];
  for (const [point, count] of Object.entries(diagram.goats)) {
    const { x, y } = at(point);
    pieces.push(`<circle class="goat" cx="${x}" cy="${y}" r="11"/>`);
    if (count > 1) pieces.push(`<text x="${x}" y="${y + 4}">${count}</text>`);
  }
  for (const point of diagram.tigers) {
    const { x, y } = at(point);
    pieces.push(`<circle class="tiger" cx="${x}" cy="${y}" r="13"/>`);
  }
  if (diagram.jump) {
    const [from, over, to] = diagram.jump.map(at) as [
      ReturnType<typeof at>,
      ReturnType<typeof at>,
      ReturnType<typeof at>,
    ];
    pieces.push(
      `<path class="jump" d="M${from.x} ${from.y}Q${over.x} ${over.y - 30} ${to.x} ${to.y}" marker-end="url(#head)"/>`,
      `<path class="taken" d="M${over.x - 8} ${over.y - 8}l16 16m0-16l-16 16"/>`,
    );
  }
  const labels = [
    ...[...'abcde'].map((c, i) => `<text x="${20 + i * 40}" y="214">${c}</text>`),
    ...[1, 2, 3, 4, 5].map((n) => `<text x="-6" y="${24 + (5 - n) * 40}">${n}</text>`),
  ];
  return [
    `<svg viewBox="-16 0 232 220" width="232" height="220" role="img" aria-label="${html(caption)}">`,
    '<defs><marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0L10 5L0 10z"/></marker></defs>',
    '<rect x="4" y="4" width="192" height="192" rx="8" class="surface"/>',
    `<g class="lines">${lines.join('')}</g>`,
    pieces.join(''),
    `<g class="labels">${labels.join('')}</g>`,
    '</svg>',
  ].join('');
}

const html = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const figure = (diagram: Diagram, caption: string): string =>
  `<figure>${diagramSvg(diagram, caption)}<figcaption>${html(caption)}</figcaption></figure>`;

/** What each page says, in order: paragraphs (message keys) and diagrams. */
const CONTENT: {
  readonly [V in HowToPlayVariant]: readonly (
    | string
    | { readonly diagram: Diagram; readonly caption: string }
  )[];
} = {
  'bagh-chal': [
    'howto_chal_intro',
    {
      diagram: { diagonals: true, tigers: ['a1', 'e1', 'a5', 'e5'], goats: {} },
      caption: 'howto_caption_start',
    },
    'howto_board',
    'howto_chal_goats',
    'howto_chal_tigers',
    {
      diagram: { diagonals: true, tigers: ['a1'], goats: { b2: 1, c2: 1, b4: 1 }, jump: ['a1', 'b2', 'c3'] },
      caption: 'howto_caption_jump',
    },
    'howto_chal_win',
    {
      diagram: {
        diagonals: true,
        tigers: ['a1'],
        goats: { a2: 1, b1: 1, b2: 1, a3: 1, c1: 1, c3: 1 },
      },
      caption: 'howto_caption_trap',
    },
    'howto_chal_repeat',
    'howto_draw',
  ],
  'bagh-guti': [
    'howto_guti_intro',
    {
      diagram: { diagonals: true, tigers: ['c3', 'c5'], goats: { b2: 5, d2: 5, b4: 5, d4: 5 } },
      caption: 'howto_caption_start',
    },
    'howto_board',
    'howto_guti_goats',
    'howto_guti_tigers',
    {
      diagram: { diagonals: true, tigers: ['c3'], goats: { d2: 4 }, jump: ['c3', 'd2', 'e1'] },
      caption: 'howto_caption_stack',
    },
    'howto_guti_win',
    'howto_guti_bandi',
    'howto_draw',
  ],
};

const VARIANT_KEY: { readonly [V in HowToPlayVariant]: string } = {
  'bagh-chal': 'variant_bagh_chal',
  'bagh-guti': 'variant_bagh_guti',
};

/** Colours of the board as the app draws it (app.css's variables, with the system's scheme). */
const STYLE = `
main { max-width: 44rem; line-height: 1.55; }
figure { margin: 1rem 0; display: grid; justify-items: center; gap: 0.25rem; }
figcaption { color: var(--muted); font-size: 0.9rem; }
svg { max-width: 100%; height: auto; }
.surface { fill: var(--board); stroke: var(--board-edge); stroke-width: 3; }
.lines line { stroke: var(--line); stroke-width: 2.5; stroke-linecap: round; }
.tiger { fill: var(--tiger); stroke: var(--tiger-dark); stroke-width: 2.5; }
.goat { fill: var(--goat); stroke: var(--goat-dark); stroke-width: 2; }
.jump { fill: none; stroke: var(--jump); stroke-width: 3; }
marker path { fill: var(--jump); }
.taken { stroke: var(--jump); stroke-width: 3; }
text { font: 12px system-ui, sans-serif; text-anchor: middle; fill: var(--muted); }
circle + text { fill: var(--goat-dark); font-weight: 700; }
.langs { display: flex; gap: 0.75rem; font-family: system-ui, sans-serif, "Bagh Language Names"; }
`;

export interface PageOptions {
  readonly locale: string;
  /** Every language's own name (LOCALE_NAMES), for links to this page in each. */
  readonly languages: Readonly<Record<string, string>>;
  /** The app's stylesheet (its fonts and colours), or none. */
  readonly stylesheet: string | null;
  /** The language's script font, fetched at once: text drawn before it came could stay tofu. */
  readonly font?: string | undefined;
}

/** The page of `variant` in `text`'s language. */
export function howToPlayPage(variant: HowToPlayVariant, text: Text, options: PageOptions): string {
  const { locale, languages, stylesheet, font } = options;
  const title = text('howto_title', { game: text(VARIANT_KEY[variant]) });
  const body = CONTENT[variant]
    .map((part) =>
      typeof part === 'string' ? `<p>${html(text(part))}</p>` : figure(part.diagram, text(part.caption)),
    )
    .join('\n');
  const others = HOW_TO_PLAY_VARIANTS.filter((v) => v !== variant)
    .map((v) => `<a href="${v}.html">${html(text('howto_title', { game: text(VARIANT_KEY[v]) }))}</a>`)
    .join(' ');
  const langs = Object.entries(languages)
    .map(([l, name]) =>
      l === locale
        ? `<b lang="${l}">${html(name)}</b>`
        : `<a href="../${l}/${variant}.html" lang="${l}" hreflang="${l}">${html(name)}</a>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} — Bagh</title>
${font ? `<link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin>` : ''}
${stylesheet ? `<link rel="stylesheet" href="${stylesheet}">` : ''}
<style>${STYLE}</style>
</head>
<body>
<header class="top"><a class="brand" href="/">Bagh</a><nav class="langs" aria-label="${html(text('language'))}">${langs}</nav></header>
<main data-how-to-play="${variant}">
<h1>${html(title)}</h1>
${body}
<p><a href="/">${html(text('new_game'))}</a> ${others}</p>
</main>
</body>
</html>
`;
}
