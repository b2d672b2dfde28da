import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import type { AddedFacts, CourseEdit } from '../../schemas/catalogue';
import type { Rebuild } from '../RebuildStatus';
import type { RegisterCheckView } from './RegisterCheck';

/** What the catalogue screens load: the lists, one course for its form, and the latest rebuild. */
export type CourseStatus = 'published' | 'edited' | 'new' | 'retired';
export interface Stamp {
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}
export interface CourseRow extends Stamp {
  code: string;
  title: string;
  level: string;
  category: { slug: string; name: string };
  featured: boolean;
  status: CourseStatus;
  successor: string | null;
  registerCheck: { checkedAt: string; status: string } | null;
  watch: string | null;
}
export interface CategoryRow extends Stamp {
  slug: string;
  name: string;
  description: string;
  color: string;
  image: string | null;
  picture: string;
  courseCount: number;
}
export interface CatalogueData {
  courses: CourseRow[];
  categories: CategoryRow[];
  overlayError: string | null;
  rebuild: Rebuild;
}
export interface CourseEntry extends Stamp {
  code: string;
  facts: AddedFacts;
  added: boolean;
  status: CourseStatus;
  edit: CourseEdit;
  registerCheck: RegisterCheckView | null;
  workRequirement: { hours: number; note: string } | null;
  watch: string | null;
  accreditedUntil: string | null;
}

export const STATUS_LABELS: Record<CourseStatus, string> = {
  published: 'Published',
  edited: 'Edited',
  new: 'Added',
  retired: 'Retired',
};
export const CATALOGUE_KEY = ['admin-catalogue'];

export function useCatalogue() {
  return useQuery({ queryKey: CATALOGUE_KEY, queryFn: () => api<CatalogueData>('/admin/catalogue') });
}

export { time } from '../RebuildStatus';
