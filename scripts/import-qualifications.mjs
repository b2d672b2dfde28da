#!/usr/bin/env node
// Rebuilds content/courses.json (the published catalogue facts) from the qualification review kept in
// content/qualifications-review.json (a copy of the review the team received; pass a newer file to re-import) and
// our own source checks in content/qualification-checks.json, keeping the featured flags chosen in
// content/course-details/.
//
// Usage: node scripts/import-qualifications.mjs [path/to/qualifications.json] [--review-date YYYY-MM-DD]
//
// Rules (README, Catalogue):
// - A code is published only when its status is `current`: our own check decides, else the shared review's
//   `status`, else `current` when the review marks it verified and `unconfirmed` when it does not.
// - `superseded` codes are replaced by their successor when we confirmed the successor ourselves (a check with
//   status current and `replaces`); the successor keeps the old code in `replaces` so the old address redirects.
// - `invalid`, `unconfirmed` and superseded codes without a confirmed successor are left out.
// - checkedOn/source: our check's date and source when we checked; otherwise the review date (the day the shared
//   review was delivered: --review-date, else the facts file's modification date) and the source
//   "qualifications review in shared facts file", and only for codes the review marks verified. Both are staff
//   notes: the page shows only whether a person looked the code up on the National Register (`registerCheck`),
//   which only our own checks against a training.gov.au address give.
// - workRequirement: the hours of work in the role the review found (its `workRequirement`, "120 hours ..."), to be
//   confirmed on the register by staff. watch: the review's note on codes under national review (staff only).
//   accreditedUntil: the accreditation end of an accredited course, from our check or the review, never guessed.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const flag = args.indexOf('--review-date');
const reviewDateArg = flag >= 0 ? args.splice(flag, 2)[1] : undefined;
const source = args[0] ?? new URL('../content/qualifications-review.json', import.meta.url).pathname;
const reviewDate = reviewDateArg ?? statSync(source).mtime.toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(reviewDate)) throw new Error(`--review-date must be YYYY-MM-DD, not ${reviewDate}`);

const REVIEW_SOURCE = 'qualifications review in shared facts file';
const facts = JSON.parse(readFileSync(source, 'utf8'));
const checks = new Map(
  JSON.parse(readFileSync(new URL('../content/qualification-checks.json', import.meta.url), 'utf8')).map((c) => [
    c.code,
    c,
  ]),
);
const detailsDir = new URL('../content/course-details/', import.meta.url);
const featured = new Set(
  readdirSync(detailsDir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(new URL(f, detailsDir), 'utf8')))
    .filter((d) => d.featured)
    .map((d) => d.code),
);

const statusOf = (fact) =>
  checks.get(fact.code)?.status ?? fact.status ?? (fact.verified === false ? 'unconfirmed' : 'current');

const REGISTER = 'https://training.gov.au/Training/Details/';

function registerCheckOf(code, check) {
  if (check?.status !== 'current' || check.source !== `${REGISTER}${code}`) return {};
  return { registerCheck: { checkedOn: check.checkedOn, status: 'current', title: check.title } };
}

function workRequirementOf(fact) {
  if (!fact.workRequirement) return {};
  const hours = /^(\d+) hours\b/.exec(fact.workRequirement);
  if (!hours) throw new Error(`${fact.code}: workRequirement does not start with "N hours": ${fact.workRequirement}`);
  return { workRequirement: { hours: Number(hours[1]), note: fact.workRequirement } };
}

function publish(fact, check) {
  // A check without a status only records how the course can be obtained (rplAlone/rplNote); its facts keep the review's date.
  const own = Boolean(check?.status);
  const rplAlone = check?.rplAlone ?? fact.rplSuitable !== false;
  const rplNote = check?.rplNote ?? (rplAlone ? undefined : fact.note);
  return {
    code: fact.code,
    title: fact.title,
    level: fact.level,
    category: fact.category,
    featured: featured.has(fact.code),
    status: 'current',
    checkedOn: own ? check.checkedOn : reviewDate,
    source: own ? check.source : REVIEW_SOURCE,
    ...(own && check.title ? registerCheckOf(fact.code, check) : {}),
    ...workRequirementOf(fact),
    ...((check?.watch ?? fact.watch) ? { watch: check?.watch ?? fact.watch } : {}),
    ...((check?.accreditedUntil ?? fact.accreditedUntil)
      ? { accreditedUntil: check?.accreditedUntil ?? fact.accreditedUntil }
      : {}),
    ...(rplAlone ? {} : { rplAlone: false, rplNote }),
    ...(fact.replaces ? { replaces: [fact.replaces] } : {}),
  };
}

const courses = [];
const left = [];
for (const fact of facts) {
  const check = checks.get(fact.code);
  const status = statusOf(fact);
  if (status === 'current') {
    if (!check?.status && fact.verified === false)
      left.push(`${fact.code} (current in the review but not verified or checked)`);
    else courses.push(publish(fact, check));
    continue;
  }
  const successorCode = check?.supersededBy ?? fact.supersededBy;
  const successor = status === 'superseded' && successorCode ? checks.get(successorCode) : undefined;
  if (successor?.status === 'current' && successor.replaces === fact.code) {
    // The old code's work requirement and watch note are not the successor's facts.
    const { workRequirement: _work, watch: _watch, ...kept } = fact;
    const next = { ...kept, code: successor.code, title: successor.title, level: successor.level, replaces: fact.code };
    courses.push({ ...publish(next, successor), featured: featured.has(successor.code) || featured.has(fact.code) });
    left.push(`${fact.code} (${status}, replaced by ${successor.code})`);
  } else {
    left.push(`${fact.code} (${status}${successorCode ? `; successor ${successorCode} not confirmed` : ''})`);
  }
}

writeFileSync(new URL('../content/courses.json', import.meta.url), `${JSON.stringify(courses, null, 2)}\n`);
console.log(
  `content/courses.json: ${courses.length} courses published, ${courses.filter((c) => c.featured).length} featured`,
);
console.log(`Review date for courses not checked by us: ${reviewDate}`);
for (const line of left) console.log(`  not published: ${line}`);
const count = (has) => courses.filter(has).length;
console.log(
  `Checked on the register: ${count((c) => c.registerCheck)}; not yet checked: ${count((c) => !c.registerCheck)}; ` +
    `work hours: ${
      courses
        .filter((c) => c.workRequirement)
        .map((c) => c.code)
        .join(', ') || 'none'
    }; ` +
    `watched: ${count((c) => c.watch)}`,
);
