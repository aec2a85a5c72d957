// /puzzles?variant=SLUG[&theme=T][&id=ID] with the hub's puzzle table
// (docs/puzzles.md, "On the hub"): one puzzle the server chose (near the
// player's rating), judged move by move here by the wasm tables for the
// feedback, and sent to the server when it is solved or failed. The
// server judges the moves again with its own tables: its verdict is what
// rates (the first attempt at a puzzle; retries are unrated). Visitors
// play unrated and send nothing.
import { el } from '../app/dom';
import { createBoardView } from '../app/boardview';
import { GameController } from '../app/game';
import { createArena } from '../app/layout';
import { loadRules, topochess, variantOf } from '../app/rules';
import type { VariantDetail } from '../app/types';
import type { Game, PuzzleSet, Variant } from '../lib/topochess';

export interface HubPuzzle {
  id: string;
  variant: string;
  kind: 'ending' | 'tactic';
  material: string;
  fen: string;
  side: 'white' | 'black';
  mate_in: number;
  title: string;
  themes: string[];
  rating: number;
  plays: number;
  solves: number;
  accepted_uci: string[];
  line_uci: string[];
  line: string[];
}

export interface HubPuzzles {
  puzzle: HubPuzzle | null;
  theme: string;
  themes: { name: string; count: number }[];
  player: { rating: number; rd: number; provisional: boolean; attempts: number; solved: number } | null;
  csrf?: string;
  signed_in: boolean;
}

interface AttemptAnswer {
  result: 'solved' | 'failed';
  rated: boolean;
  message: string;
  rating: { before: number; after: number; change: number; rd: number };
  puzzle_rating: { before: number; after: number };
  error?: string;
}

const MAX_ENTRIES = 16_000_000;

const themeHref = (slug: string, theme: string) =>
  `/puzzles?variant=${encodeURIComponent(slug)}${theme ? `&theme=${encodeURIComponent(theme)}` : ''}`;

export async function ratedPuzzlesPage(app: HTMLElement, variant: VariantDetail, hub: HubPuzzles): Promise<void> {
  const p = hub.puzzle!;
  const rules = await loadRules(variant);
  const tc = await topochess();
  const v: Variant = variantOf(tc, variant);
  const ctl = new GameController(rules);
  const title = el('h1', {}, `${variant.title}: puzzles${hub.theme ? ` (${hub.theme})` : ''}`);
  const heading = el('p', { class: 'tc-status', 'data-puzzle-title': '', 'data-puzzle-id': p.id, 'data-fen': p.fen, 'aria-live': 'polite' }, p.title);
  const note = el('p', { class: 'tc-note', 'data-note': '', 'aria-live': 'polite' });
  const arena = createArena(app, title, heading, note);
  const side = p.side;
  let solving = false;
  let set: PuzzleSet | null = null;
  let game: Game | null = null;
  let played: string[] = [];
  let sent = false; // this visit sent an attempt: later ones are retries

  const view = createBoardView(arena.board, rules, ctl, {
    movable: () => (solving && ctl.atEnd() ? side : 'none'),
    onUserMove: (m) => void tryMove(m.uci),
  });
  arena.fit();

  const ratingLine = el('p', { class: 'tc-puzzle-rating', 'data-player-rating': '' });
  const showRating = (r: number | null, provisional = false) => {
    ratingLine.textContent = hub.signed_in
      ? `Your puzzle rating: ${r ?? 1500}${provisional ? '?' : ''} (the first try at each puzzle is rated).`
      : 'Log in to have your puzzles rated; as a visitor nothing is counted.';
  };
  showRating(hub.player?.rating ?? null, hub.player?.provisional ?? true);
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  const next = btn('Next puzzle', 'next');
  const retry = btn('Try again', 'retry');
  const solution = btn('Show the solution', 'solution');
  const themes = el('p', { class: 'tc-puzzle-themes', 'data-themes': '' }, 'Themes: ',
    el('a', { href: themeHref(variant.slug, ''), ...(hub.theme ? {} : { 'aria-current': 'page' }) }, 'all'));
  for (const t of hub.themes.slice(0, 24))
    themes.append(' · ', el('a', { href: themeHref(variant.slug, t.name), ...(hub.theme === t.name ? { 'aria-current': 'page' } : {}) }, `${t.name} (${t.count})`));
  arena.side.append(
    ratingLine,
    el('p', { class: 'tc-note' }, `Puzzle rated ${p.rating}, played ${p.plays} time${p.plays === 1 ? '' : 's'}. Themes of this one: ${p.themes.join(', ') || 'none'}.`),
    el('div', { class: 'tc-controls' }, retry, solution, next),
    themes,
    el('p', { class: 'tc-note' }, 'Any move that keeps the win at the shortest distance counts; a slower win or a move that lets the win go fails the puzzle. ',
      el('a', { href: `/puzzles?variant=${encodeURIComponent(variant.slug)}&practice=1` }, 'Practise unrated puzzles made in your browser'), ' · ',
      el('a', { href: '/docs/puzzles' }, 'How puzzles are made and rated')),
  );
  const refresh = () => {
    view.sync();
    arena.fit();
  };
  ctl.onChange(refresh);

  const start = () => {
    ctl.reset(p.fen);
    game?.free();
    game = v.game(p.fen);
    view.board.set({ orientation: side });
    played = [];
    solving = true;
    app.removeAttribute('data-solved');
    app.removeAttribute('data-failed');
    note.textContent = `${side === 'white' ? 'White' : 'Black'} to move: ${p.kind === 'ending' ? `mate in ${p.mate_in}` : 'find the best line'}.`;
    ctl.changed();
  };

  /** Sends the attempt (signed in only); the server's verdict is shown. */
  const send = async (local: 'solved' | 'failed', text: string) => {
    app.setAttribute(local === 'solved' ? 'data-solved' : 'data-failed', '');
    if (!hub.signed_in || !hub.csrf) {
      note.textContent = text;
      return;
    }
    note.textContent = `${text} Sending…`;
    try {
      const res = await fetch(`/api/puzzles/${encodeURIComponent(p.id)}/attempt`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-CSRF-Token': hub.csrf },
        body: new URLSearchParams({ moves: played.join(' '), csrf: hub.csrf }).toString(),
      });
      const a = (await res.json()) as AttemptAnswer;
      if (!res.ok) {
        note.textContent = `${text} The server refused the attempt: ${a.error ?? res.status}`;
        return;
      }
      const change = a.rating.change >= 0 ? `+${a.rating.change}` : String(a.rating.change);
      note.textContent = a.rated
        ? `${text} ${a.result === 'solved' ? 'Solved' : 'Failed'}: your rating ${a.rating.before} → ${a.rating.after} (${change}).`
        : `${text} ${a.result === 'solved' ? 'Solved' : 'Failed'} (a retry: unrated).`;
      note.setAttribute('data-result', a.result);
      note.setAttribute('data-rated', String(a.rated));
      showRating(a.rating.after, a.rating.rd > 110);
      sent = true;
    } catch (e) {
      note.textContent = `${text} The attempt was not sent: ${(e as Error).message}`;
    }
  };

  /** A tactic: each move must be the line's (the first may be any accepted one). */
  const tacticMove = (uci: string) => {
    const ply = played.length * 2;
    const ok = uci === p.line_uci[ply] || (ply === 0 && p.accepted_uci.includes(uci));
    played.push(uci);
    if (!ok) return void send('failed', `${uci} is not the solution.`);
    ctl.play(uci);
    const reply = p.line_uci[ply + 1];
    if (!reply) return void send('solved', 'Solved!');
    ctl.play(reply);
    note.textContent = 'Best. Go on.';
  };

  async function tryMove(uci: string): Promise<void> {
    if (!solving) return;
    if (p.kind !== 'ending') return tacticMove(uci);
    if (!set || !game) return;
    const a = set.check(game, uci);
    if (a.verdict === 'illegal') {
      note.textContent = a.message;
      return;
    }
    played.push(a.uci);
    if (a.verdict !== 'best') {
      solving = false;
      refresh();
      await send('failed', a.verdict === 'slower'
        ? `${a.move} wins too, but ${a.slower_by} move${a.slower_by === 1 ? '' : 's'} slower than the mate in ${a.mate_before}.`
        : `${a.move} lets the win go.`);
      return;
    }
    ctl.play(a.uci);
    game.play(a.uci);
    if (a.mates) {
      solving = false;
      ctl.changed();
      await send('solved', `${a.move}: checkmate.`);
      return;
    }
    note.textContent = `${a.move}: best. The defence answers…`;
    const reply = a.reply_uci;
    solving = false;
    setTimeout(() => {
      if (!reply || !game) return;
      ctl.play(reply);
      game.play(reply);
      solving = true;
      note.textContent = `${a.move}, ${a.reply}: mate in ${a.mate_after - 1} to go.`;
      ctl.changed();
    }, 350);
  }

  next.addEventListener('click', () => {
    window.location.href = themeHref(variant.slug, hub.theme);
  });
  retry.addEventListener('click', () => {
    start();
    if (sent) note.textContent += ' (a retry: unrated)';
  });
  solution.addEventListener('click', () => {
    start();
    solving = false;
    for (const m of p.line_uci) {
      ctl.play(m);
      game?.play(m);
    }
    note.textContent = `The solution: ${p.line.join(' ')}`;
    ctl.changed();
  });

  if (p.kind === 'ending') {
    heading.textContent = `Solving ${p.material} on this board…`;
    await new Promise((r) => setTimeout(r, 30));
    try {
      set = v.puzzleSet(p.material, MAX_ENTRIES);
    } catch (e) {
      heading.textContent = `${p.material}: ${(e as Error).message}`;
      return;
    }
    heading.textContent = p.title;
  }
  start();
}
