/**
 * Issue 23, the editor's scenario in a real browser (Debian chromium, every
 * request off loopback failing the test): build a page from the demo's
 * layout, add three blocks with their content (a title, rich text, an image
 * with its alt text) right in the page builder, try to publish with a block
 * that cannot be published (the refusal names it and the builder
 * highlights it), remove it, publish the page in one action, then read the
 * page anonymously through the JSON-LD API, blocks in order. Screenshots go
 * to test-results/ (admin-page-builder-*.png).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'

let site: AdminSite
let browser: TestBrowser
let page: Page

beforeAll(async () => {
  site = await startAdminSite()
  browser = await openBrowser()
  page = await browser.newPage()
  await page.setViewportSize({ width: 1280, height: 900 })
  await signIn(page, site.base, await site.superAdmin())
}, 900_000)

afterAll(async () => {
  await browser?.close()
  await site?.stop()
})

/** An anonymous JSON-LD read (no cookie). */
const anonymous = async (path: string) => {
  const response = await fetch(`${site.base}${path}`, { headers: { accept: 'application/ld+json' } })
  return { status: response.status, body: response.status === 200 ? ((await response.json()) as any) : null }
}

const settled = () =>
  page.waitForFunction(
    () => document.querySelector('[data-testid=page-builder]')?.getAttribute('aria-busy') === 'false',
  )

describe('an editor builds and publishes a page in the page builder', () => {
  it('adds three blocks with their content and an image, publishes the page in one action, and anonymous callers read it in order', async () => {
    // A new page on the demo's layout, through Payload's own create form.
    await page.goto(`${site.base}/admin/collections/pages/create`)
    await page.locator('#field-reference').fill('scenario')
    await page.locator('#field-title').fill('Scenario')
    await page.locator('#field-layout .rs__control').click()
    await page.locator('.rs__option', { hasText: 'primary' }).click()
    await page.locator('#action-save').click()
    await page.waitForURL((url) => /\/admin\/collections\/pages\/[0-9a-f-]{36}$/.test(url.pathname))
    const pageId = new URL(page.url()).pathname.split('/').pop()!

    const builder = page.getByTestId('page-builder')
    await builder.getByTestId('page-publish').waitFor()
    // The page's group (unless the new page came with one).
    if ((await builder.getByTestId('owner-page').getByTestId('group-main').count()) === 0) {
      await builder.getByLabel('New group location').fill('main')
      await builder.getByRole('button', { name: 'Add group' }).click()
    }
    const main = builder.getByTestId('owner-page').getByTestId('group-main')
    await main.waitFor()
    const adder = main.getByRole('group', { name: 'Add a block' })
    const form = main.getByTestId('add-block-form')

    // 1. A title, typed in the builder: no drawer, no "save first".
    // (The demo names its Title type "Heading".)
    await adder.getByRole('button', { name: /^(Title|Heading)$/ }).click()
    await form.getByRole('textbox').first().fill('Welcome to the scenario')
    await form.getByRole('button', { name: 'Add block' }).click()
    await main.getByTestId('component-link').filter({ hasText: 'Welcome to the scenario' }).waitFor()

    // 2. Rich text: paragraphs typed in the builder.
    await adder.getByRole('button', { name: /^(Rich text|Html content|HtmlContent)$/ }).click()
    await form.getByLabel('Text', { exact: true }).fill('Hello from the page builder.\n\nA second paragraph.')
    await form.getByRole('button', { name: 'Add block' }).click()
    await main.getByTestId('component-link').filter({ hasText: 'Hello from the page builder.' }).waitFor()

    // 3. An image uploaded straight from the builder, with its alt text.
    const jpeg = await sharp({
      create: { width: 640, height: 400, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer()
    await adder.getByRole('button', { name: 'Image', exact: true }).click()
    await form
      .getByLabel('Image file')
      .setInputFiles({ name: 'Harbour view.jpg', mimeType: 'image/jpeg', buffer: jpeg })
    await form.getByLabel('Alt text').fill('Boats in a blue harbour')
    await form.getByRole('button', { name: 'Add block' }).click()
    // Named by its file name as uploaded (no storage token, no extension), with its thumbnail.
    await main.getByTestId('component-link').filter({ hasText: 'Harbour view' }).waitFor()
    await main.getByTestId('block-thumbnail').waitFor()
    await settled()

    // Their states, and the page's summary: the rich text and the image are drafts (a Title is not publishable: live).
    const states = await main
      .getByTestId('block-state')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))
    expect(states).toEqual(['live', 'draft', 'draft'])
    await expect(builder.getByTestId('page-changes').textContent()).resolves.toMatch(/^2 changes not published/)

    // A link with nowhere to go cannot be published: the refusal names the block and the field, the block is highlighted, nothing is published.
    await adder.getByRole('button', { name: 'Navigation link', exact: true }).click()
    await form.getByRole('textbox').first().fill('Dead end')
    await form.getByRole('button', { name: 'Add block' }).click()
    await main.getByTestId('component-link').filter({ hasText: 'Dead end' }).waitFor()
    await settled()
    await builder.getByRole('button', { name: 'Publish page' }).click()
    const refused = main.locator('[data-testid=position][data-refused]')
    await refused.waitFor()
    await expect(refused.getByTestId('block-refusal').textContent()).resolves.toMatch(
      /block “Dead end” cannot be published: Route: A route or a rawPath is required to publish\./,
    )
    await expect(builder.getByRole('alert').first().textContent()).resolves.toContain('Nothing was published')
    await screenshot(page, 'admin-page-builder-refusal')
    const view = await page.evaluate(
      async (iri) =>
        (
          await fetch(`/_api/_/page_builder?iri=${encodeURIComponent(iri)}`, {
            headers: { accept: 'application/ld+json' },
          })
        ).json(),
      `/_api/_/pages/${pageId}`,
    )
    expect(view.changes.page).toBe(3)

    // Remove it (the button asks once more), then publish the page: one click, one request.
    await refused.getByRole('button', { name: 'Remove' }).click()
    await refused.getByRole('button', { name: 'Confirm remove' }).click()
    await main.getByTestId('component-link').filter({ hasText: 'Dead end' }).waitFor({ state: 'detached' })
    await settled()
    const publishes: string[] = []
    page.on(
      'request',
      (request) => request.url().endsWith('/_/page_builder/publish') && publishes.push(request.method()),
    )
    await builder.getByRole('button', { name: 'Publish page' }).click()
    await builder.getByRole('status').filter({ hasText: 'Published 2 blocks.' }).waitFor()
    await settled()
    expect(publishes).toEqual(['POST'])
    await expect(builder.getByTestId('page-changes').textContent()).resolves.toMatch(
      /^(Everything published|0 changes not published)/,
    )
    expect(
      await main.getByTestId('block-state').evaluateAll((els) => els.map((e) => e.getAttribute('data-state'))),
    ).toEqual(['live', 'live', 'live'])
    await screenshot(page, 'admin-page-builder')

    // Anonymous: the page's group lists the three blocks in order, each published, with its content.
    const served = await anonymous(`/_api/_/pages/${pageId}`)
    expect(served.status).toBe(200)
    const groups = await Promise.all((served.body.componentGroups as string[]).map((iri) => anonymous(iri)))
    const group = groups.find((g) => g.body?.location === 'main')!
    const blocks = []
    for (const positionIri of group.body.componentPositions) {
      const position = await anonymous(positionIri)
      const component = await anonymous(position.body.component)
      expect(component.status).toBe(200)
      blocks.push(component.body)
    }
    expect(blocks.map((b) => b['@type'])).toEqual(['Title', 'HtmlContent', 'Image'])
    expect(blocks[0].title).toBe('Welcome to the scenario')
    expect(blocks[1].html).toBe('<p>Hello from the page builder.</p><p>A second paragraph.</p>')
    expect(blocks[1]._metadata.publishable.published).toBe(true)
    expect(blocks[2].alt).toBe('Boats in a blue harbour')
    expect(blocks[2]._metadata.publishable.published).toBe(true)
    expect(blocks[2]._metadata.mediaObjects.file[0]).toMatchObject({ width: 640, height: 400, mimeType: 'image/jpeg' })

    // Edited where it is: the image's alt text in the row; the live image now has a pending draft, counted on the page.
    const imageRow = main.getByTestId('position').nth(2)
    await imageRow.getByRole('button', { name: 'Alt text' }).click()
    await imageRow.getByTestId('inline-edit').getByRole('textbox').fill('Boats in a harbour at noon')
    await imageRow.getByTestId('inline-edit').getByRole('button', { name: 'Save' }).click()
    await imageRow.locator('[data-testid=block-state][data-state=live-draft]').waitFor()
    await expect(builder.getByTestId('page-changes').textContent()).resolves.toMatch(/^1 change not published/)
    expect((await anonymous(group.body.componentPositions[2]).then((p) => anonymous(p.body.component))).body.alt).toBe(
      'Boats in a blue harbour',
    )

    // Every field in Payload's drawer, which returns to the builder on save.
    const headingRow = main.getByTestId('position').nth(0)
    await headingRow.getByRole('button', { name: 'Edit', exact: true }).click()
    const drawer = page.locator('.drawer--is-open').last()
    await drawer.locator('#field-title').fill('Welcome, edited in the drawer')
    await drawer.locator('#action-save').click()
    await drawer.waitFor({ state: 'detached' })
    await main.getByTestId('component-link').filter({ hasText: 'Welcome, edited in the drawer' }).waitFor()

    // The Images list leads with thumbnails, and names the image by its file name.
    await page.goto(`${site.base}/admin/collections/images`)
    const row = page.locator('tr', { hasText: 'Harbour view' })
    await row.waitFor()
    await row.getByTestId('list-thumbnail').waitFor()
    await screenshot(page, 'admin-images-list')
    // The thumbnail, the list's first cell, opens the image (issue 40: neither it nor the title was a link).
    await row.getByRole('link', { name: 'Open Harbour view' }).click()
    await page.waitForURL(/\/admin\/collections\/images\/[0-9a-f-]{36}$/)
    await expect(page.locator('#field-alt').inputValue()).resolves.toBe('Boats in a blue harbour') // the live record
    expect(browser.offsite).toEqual([])
    expect(browser.pageErrors).toEqual([])
  }, 300_000) // Some thirty round trips through the admin: minutes on a loaded 2-core machine.
})
