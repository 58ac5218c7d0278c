// Playwright helpers for the VS Code workbench that code-server serves. The selectors are VS Code internals
// (checked on 1.100.3, the pinned code-server): quick input, CodeLens decorations, notification toasts, and
// webviews as two nested iframes (iframe.webview > iframe#active-frame).
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-dev-shm-usage',
];

/** Opens the workbench and waits until the explorer lists `expectRow` (the workspace is loaded). */
export async function openWorkbench(page: Page, url: string, expectRow: string, timeoutMs = 60_000): Promise<number> {
  const t0 = Date.now();
  await page.goto(url);
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: expectRow }).first();
  // A reload restores the side bar's last view (the Waypoint view after the Agents step): show the Explorer then.
  await page.locator('.part.sidebar').waitFor({ timeout: timeoutMs });
  if (!(await row.waitFor({ timeout: 5_000 }).then(() => true, () => false))) {
    if (!(await page.locator('.explorer-folders-view').isVisible().catch(() => false))) await page.locator('.activitybar .action-item:has(> a[aria-label^="Explorer"])').click();
    await row.waitFor({ timeout: Math.max(1_000, timeoutMs - (Date.now() - t0)) });
  }
  return Date.now() - t0;
}

/**
 * Quick Open (Ctrl+P): type a file name, pick the row that shows `pathHint` (a folder in its description). The row
 * is clicked, not taken by Enter: with the file in "recently opened" and in the search results the list reorders
 * as results arrive, and Enter on an open, inactive file did not always switch. One more try if the tab does not
 * become active.
 */
export async function quickOpen(page: Page, fileName: string, pathHint?: string): Promise<void> {
  let rowsSeen: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(pathHint ? `${pathHint}/${fileName}` : fileName);
    const rows = page.locator('.quick-input-list .monaco-list-row');
    const wanted = pathHint ? rows.filter({ hasText: fileName }).filter({ hasText: pathHint }) : rows.filter({ hasText: fileName });
    const found = await wanted.first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
    rowsSeen = await rows.allTextContents();
    if (found) {
      await page.waitForTimeout(300); // results still arriving reorder the list
      await wanted.first().click();
      const active = await page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (active) return;
    }
    await page.keyboard.press('Escape');
  }
  const active = await page.locator('.tabs-container .tab.active').allTextContents();
  throw new Error(`Quick Open '${pathHint ? `${pathHint}/` : ''}${fileName}' did not open it (rows: ${rowsSeen.join(' | ') || 'none'}; active tabs: ${active.join(' | ') || 'none'})`);
}

/** Runs a command by its palette title ("Waypoint: Open Run…"). Focus goes to the side bar first: key presses
 * sent while a webview has focus do not reach the workbench reliably. */
/**
 * Puts `text` into the quick input. fill() waits for the input to be editable; with a walkthrough focused it
 * sometimes never reported so (clean-clone CI runs timed out there), so after 5 s the text is typed into it instead.
 */
async function typeIntoQuickInput(page: Page, input: ReturnType<Page['locator']>, text: string): Promise<void> {
  try {
    await input.fill(text, { timeout: 5_000 });
    return;
  } catch {
    await input.focus().catch(() => undefined);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
  }
}

export async function runCommand(page: Page, title: string): Promise<void> {
  // Not a click into the editor text: Playwright would scroll Monaco's virtualised lines and blank the editor.
  await page.locator('.part.sidebar .composite.title').first().click();
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await typeIntoQuickInput(page, input, `>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/**
 * Go to Line (Ctrl+G) in the focused editor (click its tab first): reveals the line in the middle. When the key
 * did not reach the editor (focus still in a tree, as after a debugger stop) the editor is focused by its tab's
 * click and the key pressed again.
 */
export async function goToLine(page: Page, line: number): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input');
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('Control+G');
    if (await input.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) break;
    if (attempt === 2) throw new Error(`Go to Line: Ctrl+G opened no input after 3 tries (active element: ${await page.evaluate(() => document.activeElement?.className ?? 'none')})`);
    await page.keyboard.press('Escape');
    await page.locator('.editor-group-container.active .tabs-container .tab.active').first().click();
  }
  await typeIntoQuickInput(page, input, `:${line}`);
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
}

/** Picks the quick-pick row containing `text` after typing `filter`. */
export async function pickQuickItem(page: Page, filter: string, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await typeIntoQuickInput(page, input, filter);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().click({ timeout: 15_000 });
}

/** A CodeLens link in the active editor by its exact title. */
export function codeLens(page: Page, title: string) {
  return page.locator('.editor-group-container.active .contentWidgets .codelens-decoration a', { hasText: title }).first();
}

/** Texts of the notification toasts on screen, by severity. */
export async function toasts(page: Page): Promise<{ severity: 'error' | 'warning' | 'info'; text: string }[]> {
  return page.$$eval('.notifications-toasts .notification-list-item', (items) =>
    items.map((el) => {
      const icon = el.querySelector('.notification-list-item-icon');
      const cls = icon?.className ?? '';
      const severity = cls.includes('codicon-error') ? 'error' : cls.includes('codicon-warning') ? 'warning' : 'info';
      return { severity: severity as 'error' | 'warning' | 'info', text: (el.querySelector('.notification-list-item-message')?.textContent ?? el.textContent ?? '').trim() };
    }),
  );
}

/** Everything in the notification centre (it keeps toasts that already hid), by severity. */
export async function allNotifications(page: Page, whileOpen?: () => Promise<unknown>): Promise<{ severity: string; text: string }[]> {
  await runCommand(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center');
  await center.waitFor({ timeout: 10_000 });
  await whileOpen?.();
  const list = await page.$$eval('.notifications-center .notification-list-item', (items) =>
    items.map((el) => {
      const cls = el.querySelector('.notification-list-item-icon')?.className ?? '';
      return { severity: cls.includes('codicon-error') ? 'error' : cls.includes('codicon-warning') ? 'warning' : 'info', text: (el.querySelector('.notification-list-item-message')?.textContent ?? '').trim() };
    }),
  );
  await page.keyboard.press('Escape');
  return list;
}

/** Error and warning counts from the status bar's problems item (every marker source, not only extensions'). */
export async function problemCounts(page: Page): Promise<{ errors: number; warnings: number }> {
  const item = page.locator('[id="status.problems"]').first();
  await item.waitFor({ timeout: 10_000 });
  const label = (await item.locator('a, .statusbar-item-label').first().getAttribute('aria-label')) ?? (await item.innerText());
  const nums = (label.match(/\d+/g) ?? []).map(Number);
  return { errors: nums[0] ?? 0, warnings: nums[1] ?? 0 };
}

/** The run viewer's frames (the inner webview frame that has window.__waypointViewer), with their state. */
export async function viewerFrames(page: Page): Promise<{ frame: Frame; runId?: string; ready: boolean; eventCount: number }[]> {
  const out: { frame: Frame; runId?: string; ready: boolean; eventCount: number }[] = [];
  for (const frame of page.frames()) {
    try {
      const s = await frame.evaluate(() => {
        const h = (window as { __waypointViewer?: { runId?: string; ready: boolean; eventCount: number } }).__waypointViewer;
        return h ? { runId: h.runId, ready: h.ready, eventCount: h.eventCount } : undefined;
      });
      if (s) out.push({ frame, ...s });
    } catch {
      // detached or cross-origin frame while the workbench re-renders
    }
  }
  return out;
}

/** Waits for a viewer frame that satisfies `pred`; fails with `what` after `timeoutMs`. */
export async function waitViewer(page: Page, what: string, timeoutMs: number, pred: (v: { runId?: string; ready: boolean; eventCount: number }) => boolean): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await viewerFrames(page)).find((v) => v.ready && pred(v));
    if (found) return found.frame;
    if (Date.now() > deadline) {
      const seen = (await viewerFrames(page)).map((v) => `${v.runId ?? '?'} (ready ${v.ready}, ${v.eventCount} events)`);
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; viewer frames: ${seen.join(', ') || 'none'}`);
    }
    await page.waitForTimeout(250);
  }
}

export class Shots {
  readonly taken: { file: string; errors: string[] }[] = [];
  constructor(private readonly dir: string) {}

  /** Saves a screenshot and fails when an error notification is on screen. */
  async take(page: Page, name: string): Promise<string> {
    const file = join(this.dir, `${name}.png`);
    await page.screenshot({ path: file });
    const errors = (await toasts(page)).filter((t) => t.severity === 'error').map((t) => t.text);
    this.taken.push({ file, errors });
    if (errors.length > 0) throw new Error(`error notification on screen in ${file}: ${errors.join(' | ')}`);
    return file;
  }
}
