// Optional sounds, made here with WebAudio (no sound files to ship): a
// short tick for a move, a lower knock for a capture, two rising tones for
// a check, three quick beeps for low time. Off until the person turns them
// on (remembered in this browser).
const KEY = 'tc-sound';

export type SoundKind = 'move' | 'capture' | 'check' | 'lowtime';

let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export function setSoundOn(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* storage off: on for this page only */
  }
  if (on) ctx ??= new AudioContext();
}

/** One tone: frequency (Hz), start offset and length (s), loudness. */
function tone(a: AudioContext, freq: number, at: number, len: number, gain: number, type: OscillatorType = 'sine'): void {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.value = freq;
  const t = a.currentTime + at;
  g.gain.setValueAtTime(0, t);
  g.gain.linearRampToValueAtTime(gain, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + len);
  o.connect(g).connect(a.destination);
  o.start(t);
  o.stop(t + len + 0.02);
}

export function playSound(kind: SoundKind): void {
  if (!soundOn()) return;
  document.body.setAttribute('data-last-sound', kind);
  try {
    ctx ??= new AudioContext();
    const a = ctx;
    if (a.state === 'suspended') void a.resume();
    if (kind === 'move') tone(a, 520, 0, 0.08, 0.25, 'triangle');
    else if (kind === 'capture') {
      tone(a, 180, 0, 0.14, 0.4, 'square');
      tone(a, 360, 0, 0.06, 0.15, 'triangle');
    } else if (kind === 'check') {
      tone(a, 660, 0, 0.1, 0.25);
      tone(a, 880, 0.11, 0.14, 0.25);
    } else for (let i = 0; i < 3; i++) tone(a, 990, i * 0.12, 0.07, 0.2, 'square');
  } catch {
    /* no audio device: silence */
  }
}
