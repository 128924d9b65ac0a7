/** Whole UTC days, both ends inclusive, as YYYY-MM-DD (list filters by date). */
export interface TDayRange {
  after?: string;
  before?: string;
}
