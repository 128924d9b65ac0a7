// A small flowing layout for the pages the service writes itself (the audit trail, the
// Certificate of Evidence): a title block, sections, label–value lists and tables whose cells
// wrap, flowing onto new pages (table headers repeated) with a footer "page i of n" on each.
// In a right-to-left language the page is mirrored: text starts at the right margin, label
// columns stand on the right, and table columns run from right to left.
import { type PDFDocument, type PDFImage, type PDFPage, type RGB, rgb } from 'pdf-lib';
import type { TDirection } from './bidi';
import { drawTextLine } from './draw-text';
import { drawFittedImage, drawTyped } from './draw-value';
import type { TFont, TFontSet } from './fonts';
import { drawable, widthOf, wrapText } from './text';

export const A4: [number, number] = [595.28, 841.89];
export const LETTER: [number, number] = [612, 792];

const MARGIN_X = 56;
const MARGIN_TOP = 58;
const MARGIN_BOTTOM = 62;
const TEXT = rgb(0.13, 0.13, 0.15);
const MUTED = rgb(0.42, 0.43, 0.47);
const ACCENT = rgb(0.1, 0.2, 0.38);
const RULE = rgb(0.78, 0.8, 0.84);
const HEADER_FILL = rgb(0.92, 0.93, 0.95);
const ZEBRA_FILL = rgb(0.975, 0.978, 0.985);
const CELL_PAD_X = 5;

export interface TColumn {
  title: string;
  /** Share of the content width. */
  share: number;
  font?: 'regular' | 'bold' | 'mono';
  size?: number;
}

export interface TCellStyle {
  font: TFont;
  size: number;
  color: RGB;
}

export class ReportWriter {
  readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: TFontSet,
    private readonly size: [number, number],
    private readonly direction: TDirection = 'ltr',
    /** Words the layout writes itself: the footer's page count. */
    private readonly pageOf: (page: number, pages: number) => string = (page, pages) =>
      `Page ${page} of ${pages}`,
  ) {
    this.newPage();
  }

  private get rtl(): boolean {
    return this.direction === 'rtl';
  }

  /** The left edge of a box `width` wide that starts `offset` points from the start margin. */
  private boxX(offset: number, width: number): number {
    return this.rtl ? this.size[0] - MARGIN_X - offset - width : MARGIN_X + offset;
  }

  /**
   * One line of text at the start of a box (`offset` from the start margin, `width` wide): its
   * left edge in a left-to-right page, its right edge in a right-to-left one.
   */
  private line(
    text: string,
    {
      offset = 0,
      width = this.contentWidth,
      y,
      size,
      font,
      color,
    }: { offset?: number; width?: number; y: number; size: number; font: TFont; color: RGB },
  ): void {
    if (text === '') return;
    const left = this.boxX(offset, width);
    const x = this.rtl ? left + width - widthOf(font, text, size) : left;
    drawTextLine(this.page, font, text, { x, y, size, color, direction: this.direction });
  }

  get contentWidth(): number {
    return this.size[0] - 2 * MARGIN_X;
  }

  private newPage(): void {
    this.page = this.doc.addPage(this.size);
    this.pages.push(this.page);
    this.y = this.size[1] - MARGIN_TOP;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN_BOTTOM) this.newPage();
  }

  private text(s: string, font: TFont, keepLineBreaks = false): string {
    return drawable(font, s, this.fonts.missing, keepLineBreaks);
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** The document title, with a line of smaller text under it and an accent rule. */
  title(title: string, subtitle?: string): void {
    const bold = this.fonts.bold;
    this.line(this.text(title, bold), { y: this.y - 20, size: 20, font: bold, color: ACCENT });
    this.y -= 28;
    if (subtitle) {
      this.paragraph(subtitle, { size: 9.5, color: MUTED });
    }
    this.y -= 4;
    this.page.drawRectangle({ x: MARGIN_X, y: this.y, width: this.contentWidth, height: 1.5, color: ACCENT });
    this.y -= 16;
  }

  /** A section heading; it never stands alone at the foot of a page. */
  section(title: string, language = 'en'): void {
    this.ensure(110);
    const bold = this.fonts.bold;
    this.line(this.text(title, bold).toLocaleUpperCase(language), {
      y: this.y - 10,
      size: 9.5,
      font: bold,
      color: ACCENT,
    });
    this.y -= 15;
    this.page.drawLine({
      start: { x: MARGIN_X, y: this.y },
      end: { x: MARGIN_X + this.contentWidth, y: this.y },
      thickness: 0.6,
      color: RULE,
    });
    this.y -= 8;
  }

  /** A bold line naming what the rows after it are about, with muted text after it. */
  subheading(title: string, after = ''): void {
    this.ensure(48);
    const bold = this.fonts.bold;
    const regular = this.fonts.regular;
    const head = this.text(title, bold);
    const y = this.y - 10;
    this.line(head, { y, size: 9.5, font: bold, color: TEXT });
    if (after) {
      const offset = widthOf(bold, head, 9.5) + 6;
      this.line(this.text(after, regular), {
        offset,
        width: this.contentWidth - offset,
        y,
        size: 8.5,
        font: regular,
        color: MUTED,
      });
    }
    this.y -= 16;
  }

  paragraph(
    s: string,
    { size = 9, color = TEXT, font = this.fonts.regular }: { size?: number; color?: RGB; font?: TFont } = {},
  ): void {
    const lines = wrapText(font, this.text(s, font, true), size, this.contentWidth);
    for (const line of lines) {
      this.ensure(size * 1.35);
      this.line(line, { y: this.y - size, size, font, color });
      this.y -= size * 1.35;
    }
    this.y -= 4;
  }

  /** Label–value rows: labels in a narrow muted column, values wrapped beside them. */
  facts(rows: [label: string, value: string, font?: 'regular' | 'mono'][]): void {
    const labelWidth = 128;
    const valueWidth = this.contentWidth - labelWidth;
    const label: TCellStyle = { font: this.fonts.regular, size: 8.5, color: MUTED };
    for (const [name, value, kind = 'regular'] of rows) {
      const valueStyle: TCellStyle = { font: this.fonts[kind], size: kind === 'mono' ? 8.5 : 9, color: TEXT };
      this.row(
        [
          { text: name, width: labelWidth, style: label },
          { text: value, width: valueWidth, style: valueStyle },
        ],
        { padY: 2.5 },
      );
    }
    this.y -= 6;
  }

  /** A table with a shaded header row (repeated on each page it runs onto) and wrapped cells. */
  table(columns: TColumn[], rows: string[][], empty = 'None.'): void {
    const total = columns.reduce((s, c) => s + c.share, 0);
    const widths = columns.map((c) => (c.share / total) * this.contentWidth);
    const headerCells = columns.map((c, i) => ({
      text: c.title,
      width: widths[i]!,
      style: { font: this.fonts.bold, size: 8, color: TEXT },
    }));
    const cellsOf = (cells: string[]) =>
      columns.map((c, i) => ({
        text: cells[i] ?? '',
        width: widths[i]!,
        style: { font: this.fonts[c.font ?? 'regular'], size: c.size ?? 8.5, color: TEXT },
      }));
    const header = () => this.row(headerCells, { fill: HEADER_FILL, padY: 4 });
    // The header with at least the start of the first row, never alone at the foot of a page.
    const first = rows[0] ? Math.min(this.rowHeight(cellsOf(rows[0]), 4), 3 * 8.5 * 1.3 + 8) : 20;
    this.ensure(this.rowHeight(headerCells, 4) + first);
    header();
    if (rows.length === 0) {
      this.row(
        [
          {
            text: empty,
            width: this.contentWidth,
            style: { font: this.fonts.regular, size: 8.5, color: MUTED },
          },
        ],
        {
          padY: 4,
        },
      );
    }
    rows.forEach((cells, r) => {
      this.row(cellsOf(cells), {
        padY: 4,
        ...(r % 2 === 1 ? { fill: ZEBRA_FILL } : {}),
        rule: true,
        onBreak: header,
      });
    });
    this.y -= 10;
  }

  private wrapCells(cells: { text: string; width: number; style: TCellStyle }[]): string[][] {
    return cells.map((c) =>
      wrapText(c.style.font, this.text(c.text, c.style.font, true), c.style.size, c.width - 2 * CELL_PAD_X),
    );
  }

  private rowHeight(cells: { text: string; width: number; style: TCellStyle }[], padY: number): number {
    const lines = Math.max(...this.wrapCells(cells).map((w) => w.length));
    return lines * Math.max(...cells.map((c) => c.style.size * 1.3)) + 2 * padY;
  }

  /**
   * One row of cells; its lines run onto the next page when the row is taller than what is
   * left (after `onBreak` draws whatever must head the new page).
   */
  private row(
    cells: { text: string; width: number; style: TCellStyle }[],
    {
      padY = 3,
      fill,
      rule = false,
      onBreak,
    }: { padY?: number; fill?: RGB; rule?: boolean; onBreak?: () => void },
  ): void {
    const padX = CELL_PAD_X;
    const wrapped = this.wrapCells(cells);
    const lineHeight = Math.max(...cells.map((c) => c.style.size * 1.3));
    let from = 0;
    const count = Math.max(...wrapped.map((w) => w.length));
    while (from < count) {
      let fitting = Math.floor((this.y - MARGIN_BOTTOM - 2 * padY) / lineHeight);
      // Keep a short row whole on the next page rather than split it.
      if (fitting < Math.min(count - from, 3)) {
        this.newPage();
        onBreak?.();
        fitting = Math.floor((this.y - MARGIN_BOTTOM - 2 * padY) / lineHeight);
      }
      const take = Math.max(1, Math.min(fitting, count - from));
      const height = take * lineHeight + 2 * padY;
      if (fill) {
        this.page.drawRectangle({
          x: MARGIN_X,
          y: this.y - height,
          width: this.contentWidth,
          height,
          color: fill,
        });
      }
      let offset = 0;
      cells.forEach((c, i) => {
        wrapped[i]!.slice(from, from + take).forEach((line, k) => {
          this.line(line, {
            offset: offset + padX,
            width: c.width - 2 * padX,
            y: this.y - padY - k * lineHeight - c.style.size * 0.95,
            size: c.style.size,
            font: c.style.font,
            color: c.style.color,
          });
        });
        offset += c.width;
      });
      this.y -= height;
      if (rule) {
        this.page.drawLine({
          start: { x: MARGIN_X, y: this.y },
          end: { x: MARGIN_X + this.contentWidth, y: this.y },
          thickness: 0.4,
          color: RULE,
        });
      }
      from += take;
    }
  }

  /** Signature images (or typed signatures) in framed boxes, two to a row, each with its label. */
  signatures(
    items: { label: string; image?: PDFImage; typed?: string }[],
    noImage = 'No signature image',
  ): void {
    const gap = 16;
    const width = (this.contentWidth - gap) / 2;
    const height = 78;
    for (let i = 0; i < items.length; i += 2) {
      this.ensure(height + 18);
      items.slice(i, i + 2).forEach((item, k) => {
        const offset = k * (width + gap);
        const x = this.boxX(offset, width);
        const labelFont = this.fonts.regular;
        let label = this.text(item.label, labelFont);
        while (label.length > 1 && widthOf(labelFont, label, 8) > width) label = `${label.slice(0, -2)}…`;
        this.line(label, { offset, width, y: this.y - 9, size: 8, font: labelFont, color: MUTED });
        const box = { x, y: this.y - 14 - height, width, height };
        this.page.drawRectangle({ ...box, borderColor: RULE, borderWidth: 0.8, color: rgb(1, 1, 1) });
        const inner = { x: box.x + 8, y: box.y + 6, width: box.width - 16, height: box.height - 12 };
        if (item.image) drawFittedImage(this.page, item.image, inner);
        else if (item.typed)
          drawTyped(this.page, this.fonts.script, this.text(item.typed, this.fonts.script), inner);
        else
          this.line(this.text(noImage, this.fonts.regular), {
            offset: offset + 8,
            width: inner.width,
            y: inner.y + inner.height / 2,
            size: 8.5,
            font: this.fonts.regular,
            color: MUTED,
          });
      });
      this.y -= height + 26;
    }
  }

  /** Footer on every page: what the pages are on the left, "Page i of n" on the right. */
  finish(footer: string): void {
    const font = this.fonts.regular;
    let left = this.text(footer, font);
    const room = this.contentWidth - 90;
    while (left.length > 1 && widthOf(font, left, 7.5) > room) left = `${left.slice(0, -2)}…`;
    this.pages.forEach((page, i) => {
      const y = MARGIN_BOTTOM - 30;
      page.drawLine({
        start: { x: MARGIN_X, y: y + 12 },
        end: { x: this.size[0] - MARGIN_X, y: y + 12 },
        thickness: 0.5,
        color: RULE,
      });
      const count = this.text(this.pageOf(i + 1, this.pages.length), font);
      const countWidth = widthOf(font, count, 7.5);
      // What the pages are at the start edge, the page count at the other.
      const [footerX, countX] = this.rtl
        ? [this.size[0] - MARGIN_X - widthOf(font, left, 7.5), MARGIN_X]
        : [MARGIN_X, this.size[0] - MARGIN_X - countWidth];
      const style = { y, size: 7.5, color: MUTED, direction: this.direction };
      drawTextLine(page, font, left, { x: footerX, ...style });
      drawTextLine(page, font, count, { x: countX, ...style });
    });
  }
}
