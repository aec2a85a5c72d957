// The one entry (assets/app.js): reads the page kind from <body data-page>
// and its data from #tc-data, then builds that page in #tc-app.
import './styles/app.css';
import './styles/people.css';
import './styles/game.css';
import './styles/editor.css';
import { pageData } from './app/dom';
import { hubPage, type HubData } from './pages/hub';
import { variantPage, type VariantData } from './pages/variant';
import { playPage, type PlayData } from './pages/play';
import { analysisPage, type AnalysisData } from './pages/analysis';
import { gamePage, type GameData } from './pages/game';
import { lobbyPage, type LobbyData } from './pages/lobby';
import { tournamentPage, type TournamentData } from './pages/tournament';
import { editorPage, type EditorData } from './pages/editor';
import { inboxPage, watchInbox, type InboxData } from './app/inbox';
import { puzzlesPage, type PuzzlesData } from './pages/puzzles';

function fail(app: HTMLElement | null, e: unknown): void {
  const msg = e instanceof Error ? e.message : String(e);
  console.error(`topochess: ${msg}`);
  if (app) {
    const p = document.createElement('p');
    p.className = 'tc-error';
    p.textContent = `This page could not start: ${msg}`;
    app.replaceChildren(p);
  }
}

async function start(): Promise<void> {
  const page = document.body.dataset.page ?? '';
  const app = document.getElementById('tc-app');
  // the header's inbox count on every page (the lobby's stream carries it there)
  if (page !== 'lobby') watchInbox();
  try {
    switch (page) {
      case 'hub':
        await hubPage(pageData<HubData>());
        break;
      case 'variant':
        if (app) await variantPage(app, pageData<VariantData>());
        break;
      case 'play':
        if (app) await playPage(app, pageData<PlayData>());
        break;
      case 'analysis':
        if (app) await analysisPage(app, pageData<AnalysisData>());
        break;
      case 'archive': // server-rendered: nothing to build
        break;
      case 'lobby':
        lobbyPage(pageData<LobbyData>());
        break;
      case 'inbox':
        inboxPage(pageData<InboxData>());
        break;
      case 'puzzles':
        if (app) await puzzlesPage(app, pageData<PuzzlesData>());
        break;
      case 'tournament': // the list (no data: nothing to build) or one tournament, kept current
        if (document.getElementById('tc-standings')) tournamentPage(pageData<TournamentData>());
        break;
      case 'editor':
        if (app) await editorPage(app, pageData<EditorData>());
        break;
      case 'game':
        if (app) await gamePage(app, pageData<GameData>());
        break;
      default:
        return;
    }
    document.body.setAttribute('data-ready', 'true');
  } catch (e) {
    fail(app, e);
  }
}

void start();
