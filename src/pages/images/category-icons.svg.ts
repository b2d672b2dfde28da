import type { APIRoute } from 'astro';
import * as v from 'valibot';
import * as blocks from 'lucide-react/icons/blocks';
import * as briefcase from 'lucide-react/icons/briefcase';
import * as calculator from 'lucide-react/icons/calculator';
import * as hardHat from 'lucide-react/icons/hard-hat';
import * as heartHandshake from 'lucide-react/icons/heart-handshake';
import * as heartPulse from 'lucide-react/icons/heart-pulse';
import * as landmark from 'lucide-react/icons/landmark';
import * as layers from 'lucide-react/icons/layers';
import * as monitor from 'lucide-react/icons/monitor';
import * as scissors from 'lucide-react/icons/scissors';
import * as shieldCheck from 'lucide-react/icons/shield-check';
import * as users from 'lucide-react/icons/users';
import { INDUSTRY_ICONS } from '../../lib/category-icons';

/**
 * The industry icons (Lucide, src/lib/category-icons.ts) as one cached SVG sprite: category cards refer
 * to it with <use href="/images/category-icons.svg#icon-…">, so the home page and the courses index do
 * not carry eleven sets of paths in their first round trip. Strokes come from the referring <svg>.
 */
// Each icon module carries its name and SVG nodes in `__iconData` (not in Lucide's published types): read and
// checked at build time, so a Lucide release that moves it fails the build instead of drawing nothing.
const IconModuleSchema = v.looseObject({
  __iconData: v.object({
    name: v.string(),
    node: v.array(v.tuple([v.string(), v.record(v.string(), v.string())])),
  }),
});
const modules = v.parse(v.array(IconModuleSchema), [
  blocks,
  briefcase,
  calculator,
  hardHat,
  heartHandshake,
  heartPulse,
  landmark,
  layers,
  monitor,
  scissors,
  shieldCheck,
  users,
]);
const icons = new Map(modules.map(({ __iconData }) => [__iconData.name, __iconData.node]));

const missing = [...Object.values(INDUSTRY_ICONS), 'layers'].filter((name) => !icons.has(name));
if (missing.length) throw new Error(`category-icons.svg: no Lucide icon imported for ${missing.join(', ')}`);

const element = ([tag, attributes]: [string, Record<string, string>]) =>
  `<${tag} ${Object.entries(attributes)
    .filter(([name]) => name !== 'key')
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ')}/>`;

export const GET: APIRoute = () =>
  new Response(
    `<svg xmlns="http://www.w3.org/2000/svg">${[...icons]
      .map(([name, node]) => `<symbol id="icon-${name}" viewBox="0 0 24 24">${node.map(element).join('')}</symbol>`)
      .join('')}</svg>`,
    { headers: { 'Content-Type': 'image/svg+xml' } },
  );
