// A tiny element builder (no framework).
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** The page's data: the JSON the server put in #tc-data. */
export function pageData<T>(): T {
  const text = document.getElementById('tc-data')?.textContent ?? '{}';
  return JSON.parse(text) as T;
}
