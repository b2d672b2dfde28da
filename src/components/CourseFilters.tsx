/** The category and level dropdowns shared by the hero search and the search page. */
interface Props {
  categories: { slug: string; name: string }[];
  levels: string[];
  category: string;
  level: string;
  onChange: (change: { category?: string; level?: string }) => void;
  className?: string;
}

export default function CourseFilters({ categories, levels, category, level, onChange, className }: Props) {
  return (
    <>
      <label className={className}>
        <span className="visually-hidden">Category</span>
        <select name="category" value={category} onChange={(event) => onChange({ category: event.target.value })}>
          <option value="">All Categories</option>
          {categories.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className={className}>
        <span className="visually-hidden">Level</span>
        <select name="level" value={level} onChange={(event) => onChange({ level: event.target.value })}>
          <option value="">All Levels</option>
          {levels.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
