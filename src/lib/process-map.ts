/**
 * One process, told at three lengths: the home page's four summary steps, the six detailed steps on
 * How RPL Works and About, and the free quote's five form steps (which together are detailed step 1,
 * the free skills check). content/home.json says which detailed steps each summary step covers.
 */
export interface SummaryStep {
  title: string;
  covers: number[];
}

export const DETAILED_STEP_COUNT = 6;

/** "Detailed steps 1-2 of 6" / "Detailed step 3 of 6". */
export function coversLabel(covers: number[]): string {
  const sorted = [...covers].sort((a, b) => a - b);
  const range = sorted.length > 1 ? `steps ${sorted[0]}-${sorted[sorted.length - 1]}` : `step ${sorted[0]}`;
  return `Detailed ${range} of ${DETAILED_STEP_COUNT}`;
}

/** The summary step (1-based) a detailed step (1-based) belongs to. */
export function summaryFor(detailed: number, summary: SummaryStep[]): { number: number; title: string } | undefined {
  const index = summary.findIndex((step) => step.covers.includes(detailed));
  return index < 0 ? undefined : { number: index + 1, title: summary[index].title };
}

/** The line under a detailed step: where it sits in the four-step summary. */
export function summaryLabel(detailed: number, summary: SummaryStep[]): string {
  const found = summaryFor(detailed, summary);
  return found ? `In our four steps: ${found.number}. ${found.title}` : '';
}
