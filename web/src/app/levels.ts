// The engine's levels as a person picks them: 1-20, the same scale as the
// command line (`topochess play --level N`) and the server's games. Level
// N below 20 is the limited-strength player of Elo 800 + 80 (N - 1), which
// README's calibration measured on Stockfish's UCI_Elo scale; the full
// engine played like UCI_Elo 2000-2100 there, so levels from about 2050 up
// play like the full engine.
import { el } from './dom';

/** One default everywhere: the CLI's, the server's and the games API's. */
export const DEFAULT_LEVEL = 10;
const FULL_ELO = 2050;

/** The approximate rating of a level on Stockfish's UCI_Elo scale. */
export function levelElo(level: number): number {
  if (level >= 20) return FULL_ELO;
  return Math.min(FULL_ELO, 800 + 80 * (level - 1));
}

export function levelName(level: number): string {
  const elo = Math.round(levelElo(level) / 50) * 50;
  return level >= 20 ? `${level}: full strength (about ${elo})` : `${level}: about ${elo}`;
}

export function clampLevel(n: number): number {
  return Number.isInteger(n) && n >= 1 && n <= 20 ? n : DEFAULT_LEVEL;
}

/** A select of the 20 levels, each named with its rating. */
export function levelSelect(value: number, attrs: Record<string, string>): HTMLSelectElement {
  const s = el('select', attrs);
  for (let n = 1; n <= 20; n++) {
    const o = el('option', { value: String(n) }, levelName(n));
    if (n === value) o.selected = true;
    s.append(o);
  }
  s.title = 'Approximate rating on Stockfish\'s UCI_Elo scale (README: levels calibration)';
  return s;
}
