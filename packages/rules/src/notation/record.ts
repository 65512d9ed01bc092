/** R42 game record: `[Key "value"]` headers, a blank line, numbered moves, the result. */
import { createGame, type Game, playMoveTexts } from '../game.js';
import { canAbort, DECLARED_REASONS } from '../match/end.js';
import {
  err,
  OPTION_NAMES,
  type Options,
  ok,
  type Position,
  type Result,
  type RulesError,
  rulesError,
  type Side,
  VARIANTS,
  type Variant,
} from '../types.js';
import { VARIANT_RULES } from '../variants.js';
import { makeMove } from './move.js';
import { makePosition, parsePosition } from './position.js';

export type RecordErrorCode = 'ERR_RECORD_SYNTAX' | 'ERR_RECORD_MOVE' | 'ERR_RECORD_RESULT';
export type RecordError = RulesError<RecordErrorCode>;

/** How a game ended: from the rules (`captures`, `trapped`, `blocked`) or from the room. */
export interface RecordResult {
  readonly winner: Side | null;
  readonly reason: string;
}

export interface GameRecord {
  readonly headers: Readonly<Record<string, string>>;
  readonly game: Game;
  readonly result: RecordResult | null;
}

const quote = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** Options that differ from the variant's own rules, in the header's word order. */
export function makeOptionsText(variant: Variant, options: Options): string {
  const fixed = VARIANT_RULES[variant].fixedOptions;
  return OPTION_NAMES.filter((name) => options[name] && fixed[name] === undefined).join(' ');
}

export function parseOptionsText(text: string): Result<Partial<Options>, RecordError> {
  const options: Partial<Record<keyof Options, boolean>> = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!(OPTION_NAMES as readonly string[]).includes(word)) {
      return err(rulesError('ERR_RECORD_SYNTAX', `unknown option '${word}'`));
    }
    options[word as keyof Options] = true;
  }
  return ok(options);
}

const resultToken = (result: RecordResult | null): string =>
  result === null ? '*' : result.winner === null ? 'draw' : result.winner;

export function makeRecord(
  game: Game,
  extra: { readonly result?: RecordResult | null; readonly headers?: Readonly<Record<string, string>> } = {},
): string {
  const result = extra.result !== undefined ? extra.result : game.outcome;
  const headers: Record<string, string> = {
    Variant: game.variant,
    Options: makeOptionsText(game.variant, game.options),
    Result: resultToken(result),
    Termination: result?.reason ?? '',
    ...extra.headers,
  };
  const started = createGame(game.variant, game.options);
  if (!started.ok || makePosition(started.value.start) !== makePosition(game.start)) {
    headers.Position = makePosition(game.start);
  }
  const headerText = Object.entries(headers)
    .map(([key, value]) => `[${key} "${quote(value)}"]`)
    .join('\n');
  const parts: string[] = [];
  game.moves.forEach((move, i) => {
    if (i % 2 === 0) parts.push(`${i / 2 + 1}.`);
    parts.push(makeMove(move));
  });
  parts.push(resultToken(result));
  return `${headerText}\n\n${parts.join(' ')}\n`;
}

const HEADER = /^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$/;
const RESULT_TOKENS = new Set(['tiger', 'goat', 'draw', '*']);

/** `maxMoves`: a record with more moves is refused before any is played (a server's cap). */
export function parseRecord(
  text: string,
  limits: { readonly maxMoves?: number } = {},
): Result<GameRecord, RecordError> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const headers: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') {
      if (Object.keys(headers).length > 0) break;
      continue;
    }
    const match = HEADER.exec(line);
    if (!match) break;
    const key = match[1]!;
    if (Object.hasOwn(headers, key)) {
      return err(rulesError('ERR_RECORD_SYNTAX', `the ${key} header is given twice`));
    }
    headers[key] = match[2]!.replace(/\\(.)/g, '$1');
  }
  const tokens = lines
    .slice(i)
    .join(' ')
    .replace(/\{[^}]*\}/g, ' ')
    .split(/\s+/)
    .map((token) => token.replace(/^\d+\.+/, ''))
    .filter(Boolean);
  // A header line among the moves, or one not written [Key "value"] (it ended the headers).
  const header = tokens.find((token) => token.startsWith('['));
  if (header !== undefined) {
    return err(
      rulesError('ERR_RECORD_SYNTAX', `'${header.slice(0, 40)}': headers come first, as [Key "value"]`),
    );
  }
  const variant = headers.Variant;
  if (!variant || !(VARIANTS as readonly string[]).includes(variant)) {
    return err(rulesError('ERR_RECORD_SYNTAX', `missing or unknown Variant header '${variant ?? ''}'`));
  }
  const options = parseOptionsText(headers.Options ?? '');
  if (!options.ok) return options;
  let start: Position | undefined;
  if (headers.Position !== undefined) {
    const parsed = parsePosition(headers.Position);
    if (!parsed.ok) return err(rulesError('ERR_RECORD_SYNTAX', `Position header: ${parsed.error.message}`));
    start = parsed.value;
  }
  const created = createGame(variant as Variant, options.value, start);
  if (!created.ok) {
    // An option the variant lacks, or a start position it cannot have.
    const header = created.error.code === 'ERR_OPTION' ? 'Options' : 'Position';
    return err(rulesError('ERR_RECORD_SYNTAX', `${header} header: ${created.error.message}`));
  }

  const last = tokens.at(-1);
  const resultToken = last !== undefined && RESULT_TOKENS.has(last) ? tokens.pop()! : undefined;
  if (resultToken !== undefined && headers.Result !== undefined && headers.Result !== resultToken) {
    return err(
      rulesError(
        'ERR_RECORD_RESULT',
        `the Result header says '${headers.Result}' but the moves end with '${resultToken}'`,
      ),
    );
  }
  if (limits.maxMoves !== undefined && tokens.length > limits.maxMoves) {
    return err(
      rulesError('ERR_RECORD_SYNTAX', `${tokens.length} moves; at most ${limits.maxMoves} are taken`),
    );
  }
  const resultText = resultToken ?? headers.Result ?? '*';
  const played = playMoveTexts(created.value, tokens);
  if (!played.ok) {
    return err(
      rulesError(
        'ERR_RECORD_MOVE',
        `move ${played.error.index + 1} (${played.error.move}): ${played.error.message}`,
      ),
    );
  }
  const game = played.value;
  const termination = headers.Termination ?? '';
  if (resultText === '*' && termination !== '' && !game.outcome) {
    return err(
      rulesError(
        'ERR_RECORD_RESULT',
        `an unfinished game (*) has no Termination: '${termination.slice(0, 40)}'`,
      ),
    );
  }
  const declared: RecordResult | null =
    resultText === '*'
      ? null
      : { winner: resultText === 'draw' ? null : (resultText as Side), reason: termination };
  if (game.outcome) {
    if (
      !declared ||
      declared.winner !== game.outcome.winner ||
      (declared.reason && declared.reason !== game.outcome.reason)
    ) {
      return err(
        rulesError(
          'ERR_RECORD_RESULT',
          `the moves end the game (${game.outcome.winner} ${game.outcome.reason}) but the record says '${resultText}'`,
        ),
      );
    }
    return ok({ headers, game, result: game.outcome });
  }
  if (declared && !RESULT_TOKENS.has(resultText)) {
    return err(rulesError('ERR_RECORD_SYNTAX', `unknown result '${resultText}'`));
  }
  const unfit = declared && unfitDeclaredResult(declared, game.moves.length);
  if (unfit) return err(rulesError('ERR_RECORD_RESULT', unfit));
  return ok({ headers, game, result: declared });
}

/**
 * Why a result the moves do not reach cannot be: only a room ends such a game (R30), with one of
 * its reasons and a winner that fits it. An empty reason (no Termination) is taken as written.
 */
function unfitDeclaredResult(result: RecordResult, plies: number): string | null {
  const { winner, reason } = result;
  if (reason === '') return null;
  if (!(DECLARED_REASONS as readonly string[]).includes(reason)) {
    return `the moves do not end the game, so it cannot end by '${reason.slice(0, 40)}': a Termination of ${DECLARED_REASONS.join(', ')}, or none`;
  }
  if ((reason === 'resign' || reason === 'timeout') && winner === null) {
    return `a game ended by ${reason} has a winner, not a draw`;
  }
  if ((reason === 'agreement' || reason === 'aborted') && winner !== null) {
    return `a game ended by ${reason} has no winner`;
  }
  if (reason === 'aborted' && !canAbort(plies)) {
    return `a game can be aborted only before both sides have moved, not after ${plies} moves`;
  }
  return null;
}
