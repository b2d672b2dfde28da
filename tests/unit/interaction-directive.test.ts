// @vitest-environment jsdom
/**
 * The `client:interaction` directive holds a click that lands before its island has woken and replays it once
 * the island is live. A visitor who clicks the header search's Search button on an empty field and then types
 * has moved on: the held click must not be replayed on the words typed since (it sent the visitor to the
 * results for those words by itself, before they pressed anything).
 */
import { describe, expect, it } from 'vitest';
import interaction from '../../src/directives/interaction';

/** An island's form, the directive attached, and a way to let its code "arrive". */
function island() {
  const el = document.createElement('div');
  el.innerHTML =
    '<form action="/search"><input name="search" type="search"><button type="submit">Search</button></form>';
  document.body.append(el);
  const form = el.querySelector('form')!;
  const input = el.querySelector('input')!;
  const button = el.querySelector('button')!;
  const submitted: string[] = [];
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  // Once "hydrated", the island handles the submission itself, as React's onSubmit does.
  const load = async () => {
    await arrived;
    return async () => {
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted.push(input.value);
      });
    };
  };
  interaction(load, { name: 'SearchModal', value: '' }, el);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const settled = async () => {
    await new Promise((resolve) => setTimeout(resolve));
    await frame();
  };
  return { input, button, submitted, arrive, settled };
}

const type = (input: HTMLInputElement, text: string) => {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('client:interaction replays what the visitor did before the island woke', () => {
  it('a click held before waking is replayed once the island is live', async () => {
    const { input, button, submitted, arrive, settled } = island();
    type(input, 'carpenter');
    button.click();
    arrive();
    await settled();
    expect(submitted).toEqual(['carpenter']);
  });

  it('a click held before waking is dropped when the visitor types after it', async () => {
    const { input, button, submitted, arrive, settled } = island();
    button.click();
    type(input, 'aged care');
    arrive();
    await settled();
    expect(submitted).toEqual([]);
    // Their own Search later goes through as usual.
    button.click();
    expect(submitted).toEqual(['aged care']);
  });
});
