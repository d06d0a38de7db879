/**
 * A table that becomes one card per row on a phone, where its columns would not fit: each cell
 * stacks, led by its column name (the cell's data-label); from the md breakpoint up it is an
 * ordinary table. The table itself is `block md:table`, its head `hidden md:table-header-group`
 * and its body `block md:table-row-group`.
 */
export const STACKED_ROW =
  'mb-3 block rounded-xl border border-white/10 p-3 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-t md:border-white/5 md:p-0';
export const STACKED_CELL =
  'flex items-center justify-between gap-4 py-1.5 before:text-xs before:font-semibold before:uppercase before:tracking-wider before:text-stone-400 before:content-[attr(data-label)] md:table-cell md:px-3 md:py-3 md:align-middle md:before:content-none';
