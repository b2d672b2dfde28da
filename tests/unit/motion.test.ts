import { describe, expect, it } from 'vitest';
import { scrollProgress } from '../../src/lib/smooth-scroll';
import { countUpFrames, COUNT_UP_STEPS } from '../../src/lib/count-up';

describe('scroll progress bar', () => {
  it('runs from 0 at the top to 1 at the bottom', () => {
    expect(scrollProgress(0, 3000, 1000)).toBe(0);
    expect(scrollProgress(1000, 3000, 1000)).toBe(0.5);
    expect(scrollProgress(2000, 3000, 1000)).toBe(1);
  });
  it('stays within bounds on overscroll and short pages', () => {
    expect(scrollProgress(-50, 3000, 1000)).toBe(0);
    expect(scrollProgress(5000, 3000, 1000)).toBe(1);
    expect(scrollProgress(0, 800, 1000)).toBe(0);
  });
});

describe('statistics count-up (60 steps)', () => {
  it('has 60 frames that rise and end exactly on the figure', () => {
    const frames = countUpFrames(5000);
    expect(frames).toHaveLength(COUNT_UP_STEPS);
    expect(frames.at(-1)).toBe('5,000');
    const numbers = frames.map((f) => Number(f.replace(/,/g, '')));
    expect(numbers.every((n, i) => i === 0 || n >= numbers[i - 1])).toBe(true);
  });
  it('keeps one decimal for the satisfaction score', () => {
    expect(countUpFrames(4.9, 1).at(-1)).toBe('4.9');
    expect(countUpFrames(4.9, 1)[0]).toMatch(/^\d\.\d$/);
  });
});
