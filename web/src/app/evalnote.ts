// The line that says which evaluation the browser's engine uses (the
// learned net, or the hand-written one and why), shared by the play and
// analysis pages. Hidden until the engine has started.
import { el } from './dom';
import type { EvaluationState } from './engine';

export function evaluationNote(): { node: HTMLElement; show: (s: EvaluationState) => void } {
  const node = el('p', { class: 'tc-evaluation', 'data-evaluation': '', hidden: '' });
  const show = (s: EvaluationState) => {
    node.hidden = false;
    node.setAttribute('data-evaluation', s.evaluation.startsWith('hand-written') && !/net/.test(s.evaluation) ? 'hand' : 'net');
    node.textContent = `evaluation: ${s.evaluation}${s.note ? ` (${s.note})` : ''}`;
  };
  return { node, show };
}
