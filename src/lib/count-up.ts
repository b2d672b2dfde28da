/** Statistics count up over 2000 ms in 60 steps. */
export const COUNT_UP_DURATION = 2000;
export const COUNT_UP_STEPS = 60;

export function countUpFrames(target: number, decimals = 0, steps = COUNT_UP_STEPS): string[] {
  const format = (n: number) =>
    n.toLocaleString('en-AU', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return Array.from({ length: steps }, (_, i) => format(i === steps - 1 ? target : (target * (i + 1)) / steps));
}

/** Calls `render` with each frame, the last one being exactly the target. Resolves when done. */
export function countUp(target: number, decimals: number, render: (text: string) => void): Promise<void> {
  const frames = countUpFrames(target, decimals);
  const interval = COUNT_UP_DURATION / COUNT_UP_STEPS;
  return new Promise((resolve) => {
    let i = 0;
    const timer = setInterval(() => {
      render(frames[i]);
      i += 1;
      if (i >= frames.length) {
        clearInterval(timer);
        resolve();
      }
    }, interval);
  });
}
