/**
 * Issue 23, the editor's scenario in a real browser (Debian chromium, every
 * request off loopback failing the test), recorded as a first-time editor's
 * journey (issue 40) that follows what the screens say: "New page" on the
 * start panel, a title (the reference follows it), the layout, Save,
 * "Generate route from title" (the route waits for the page), three blocks
 * with their content (a title, rich text, an image with its alt text) right
 * in the page builder, nothing public yet, Live Preview showing the draft
 * page, a block that cannot be published (the refusal names it and the
 * builder highlights it) removed, then the page published in one action and
 * read anonymously through the JSON-LD API, blocks in order. The journey's
 * clicks, fields filled and seconds are printed. Screenshots go to
 * test-results/ (`npm run screenshots` keeps them in docs/screenshots).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { openBrowser, screenshot, signIn, startAdminSite, type AdminSite, type TestBrowser } from '../support/browser'
import { waitFor } from '../support/wait'

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

/** The journey's actions, counted as an editor makes them (clicks, fields filled or files chosen). */
const journey = { clicks: 0, fills: 0 }
const click = (target: Locator) => (journey.clicks++, target.click())
const fill = (target: Locator, value: string) => (journey.fills++, target.fill(value))

/** An anonymous JSON-LD read (no cookie). */
const anonymous = async (path: string) => {
  const response = await fetch(`${site.base}${path}`, { headers: { accept: 'application/ld+json' } })
  return { status: response.status, body: response.status === 200 ? ((await response.json()) as any) : null }
}

const settled = () =>
  page.waitForFunction(
    () => document.querySelector('[data-testid=page-builder]')?.getAttribute('aria-busy') === 'false',
  )

/**
 * The page form's Route table (Payload's join field, its columns the routes list's): the "Live At" of the route it
 * lists, '' when that cell is empty; null while it shows no table, no row or no such column.
 */
const routeTableLiveAt = () =>
  page.locator('#field-route').evaluate((field) => {
    const table = field.querySelector('table')
    const column = [...(table?.querySelectorAll('thead th') ?? [])].findIndex((th) =>
      /Live At/i.test(th.textContent ?? ''),
    )
    const cell = table?.querySelector('tbody tr')?.querySelectorAll('td')[column]
    return column < 0 || !cell ? null : (cell.textContent ?? '').trim()
  })

describe('an editor builds and publishes a page in the page builder', () => {
  it('adds three blocks with their content and an image, publishes the page in one action, and anonymous callers read it in order', async () => {
    // From the dashboard's start panel: "New page", a title (the reference follows it), the demo's layout, Save.
    const started = Date.now()
    await page.goto(`${site.base}/admin`)
    await click(page.getByRole('link', { name: 'New page', exact: true }))
    await page.waitForURL(/\/admin\/collections\/pages\/create/)
    await fill(page.locator('#field-title'), 'Scenario')
    await page.waitForFunction(
      () => (document.querySelector('#field-reference') as HTMLInputElement | null)?.value === 'scenario',
    )
    await screenshot(page, 'admin-new-page')
    // "Template for page data" is never empty (false unless ticked): no required asterisk telling the editor to tick it.
    const template = page.locator('.field-type.checkbox').filter({ hasText: 'Template for page data' })
    await template.waitFor()
    expect(await template.locator('.required').count()).toBe(0)
    // (A required field still shows one: the layout.)
    expect(await page.locator('label[for="field-layout"] .required').count()).toBe(1)
    await click(page.locator('#field-layout .rs__control'))
    await click(page.locator('.rs__option', { hasText: 'primary' }))
    await click(page.locator('#action-save'))
    await page.waitForURL((url) => /\/admin\/collections\/pages\/[0-9a-f-]{36}$/.test(url.pathname))
    const pageId = new URL(page.url()).pathname.split('/').pop()!
    // Its address on the site, which waits for the page's publication.
    await click(page.locator('.cwa-generate-route-button'))
    await page.locator('.cwa-generated-path').getByText('/scenario').waitFor({ timeout: 30_000 })

    const builder = page.getByTestId('page-builder')
    await builder.getByTestId('page-publish').waitFor()
    // The page's group (unless the new page came with one).
    if ((await builder.getByTestId('owner-page').getByTestId('group-main').count()) === 0) {
      await fill(builder.getByLabel('New group location'), 'main')
      await click(builder.getByRole('button', { name: 'Add group' }))
    }
    const main = builder.getByTestId('owner-page').getByTestId('group-main')
    await main.waitFor()
    const adder = main.getByRole('group', { name: 'Add a block' })
    const form = main.getByTestId('add-block-form')

    // 1. A title, typed in the builder: no drawer, no "save first".
    // (The demo names its Title type "Heading".)
    await click(adder.getByRole('button', { name: /^(Title|Heading)$/ }))
    await fill(form.getByRole('textbox').first(), 'Welcome to the scenario')
    await click(form.getByRole('button', { name: 'Add this block' }))
    await main.getByTestId('component-link').filter({ hasText: 'Welcome to the scenario' }).waitFor()

    // 2. Rich text in the site's Lexical editor, right in the builder, its toolbar at hand: a word made bold.
    await click(adder.getByRole('button', { name: /^(Rich text|Html content|HtmlContent)$/ }))
    const lexical = form.getByTestId('rich-text-in-place').locator('[contenteditable=true]')
    await click(lexical)
    journey.fills++
    await page.keyboard.type('Hello from the ')
    await click(form.getByTestId('rich-text-in-place').locator('.toolbar-popup__button-bold'))
    await page.keyboard.type('page builder')
    await click(form.getByTestId('rich-text-in-place').locator('.toolbar-popup__button-bold'))
    await page.keyboard.type('.')
    await page.keyboard.press('Enter')
    await page.keyboard.type('A second paragraph.')
    await expect(form.getByTestId('live-note').textContent()).resolves.toContain('Added as a draft')
    await screenshot(page, 'admin-page-builder-rich-text')
    await click(form.getByRole('button', { name: 'Add this block' }))
    await main.getByTestId('component-link').filter({ hasText: 'Hello from the page builder.' }).waitFor()

    // 3. An image uploaded straight from the builder, with its alt text.
    const jpeg = await sharp({
      create: { width: 640, height: 400, channels: 3, background: { r: 40, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer()
    await click(adder.getByRole('button', { name: 'Image', exact: true }))
    journey.fills++ // the file chosen
    await form
      .getByLabel('Image file')
      .setInputFiles({ name: 'Harbour view.jpg', mimeType: 'image/jpeg', buffer: jpeg })
    await fill(form.getByLabel('Alt text'), 'Boats in a blue harbour')
    await click(form.getByRole('button', { name: 'Add this block' }))
    // Named by its file name as uploaded (no storage token, no extension), with its thumbnail.
    await main.getByTestId('component-link').filter({ hasText: 'Harbour view' }).waitFor()
    await main.getByTestId('block-thumbnail').waitFor()
    await settled()

    // Their states, and the page's summary: the rich text and the image are drafts (a Title is not publishable: live).
    const states = await main
      .getByTestId('block-state')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))
    expect(states).toEqual(['no-drafts', 'draft', 'draft'])
    // Two drafts and the route that waits for the page.
    await expect(builder.getByTestId('page-changes').textContent()).resolves.toMatch(/^3 changes not published/)
    await builder
      .getByTestId('page-route')
      .getByText('Not public yet: “Publish page” makes it public at /scenario')
      .waitFor()
    // The form's Route table says so too: no go-live date.
    expect(await routeTableLiveAt()).toBe('')

    // Not on the site before "Publish page": its route and the website's page are 404, its drafts too. (The
    // contract's default, routableSecurity unset, leaves the page record and its heading, a type that is not
    // publishable, readable by their IRIs: docs/publishing.md.)
    expect((await anonymous('/_api/_/routes//scenario')).status).toBe(404)
    expect((await fetch(`${site.base}/scenario`)).status).toBe(404)
    const richText = (await main.getByTestId('component-link').nth(1).getAttribute('href'))!.split('/').pop()
    expect((await anonymous(`/_api/component/html_contents/${richText}`)).status).toBe(404)

    // Previewed beside the builder: Payload's Live Preview shows the page as the website renders it, drafts included.
    await click(page.getByRole('button', { name: 'Live Preview' }))
    const iframe = page.locator('#live-preview-iframe')
    await iframe.waitFor({ timeout: 30_000 })
    const preview = (await (await iframe.elementHandle())!.contentFrame())!
    await preview.getByText('Hello from the page builder.').first().waitFor({ timeout: 60_000 })
    await preview.locator('img[alt="Boats in a blue harbour"]').first().waitFor()
    await screenshot(page, 'admin-page-preview')
    // A change made in the builder (not through Payload's form) refreshes the preview beside it.
    const heading = main.getByTestId('position').nth(0)
    await heading.locator('button', { hasText: 'Quick edit' }).click()
    await heading.getByTestId('inline-edit').getByRole('textbox').fill('Welcome to the previewed scenario')
    await heading.getByTestId('inline-edit').getByRole('button', { name: 'Save' }).click()
    await preview.getByText('Welcome to the previewed scenario').first().waitFor({ timeout: 30_000 })
    await click(page.getByRole('button', { name: 'Live Preview' }))
    await iframe.waitFor({ state: 'hidden' })

    // A link with nowhere to go cannot be published: the refusal names the block and the field, the block is highlighted, nothing is published.
    await click(adder.getByRole('button', { name: 'Navigation link', exact: true }))
    await fill(form.getByRole('textbox').first(), 'Dead end')
    await click(form.getByRole('button', { name: 'Add this block' }))
    await main.getByTestId('component-link').filter({ hasText: 'Dead end' }).waitFor()
    await settled()
    await click(builder.getByRole('button', { name: 'Publish page' }))
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
    await click(refused.getByRole('button', { name: 'More actions' }))
    await click(page.locator('.popup__content').getByRole('button', { name: 'Remove…' }))
    await click(refused.getByRole('button', { name: 'Confirm remove' }))
    await main.getByTestId('component-link').filter({ hasText: 'Dead end' }).waitFor({ state: 'detached' })
    await settled()
    const publishes: string[] = []
    page.on(
      'request',
      (request) => request.url().endsWith('/_/page_builder/publish') && publishes.push(request.method()),
    )
    await click(builder.getByRole('button', { name: 'Publish page' }))
    await builder
      .getByRole('status')
      .filter({ hasText: 'Published 2 blocks. The page is public now at /scenario.' })
      .waitFor()
    await settled()
    expect(publishes).toEqual(['POST'])
    // The form's Route table shows the go-live "Publish page" gave the route, without a reload (it read its rows once).
    await waitFor(async () => Boolean(await routeTableLiveAt()), {
      timeout: 10_000,
      interval: 200,
      message: 'the Route table’s Live At',
    })
    console.log(
      `first-editor journey: ${journey.clicks} clicks and ${journey.fills} fields from the dashboard to the published page (${((Date.now() - started) / 1000).toFixed(1)} s in this test, a refused publication included)`,
    )
    expect((await anonymous('/_api/_/routes//scenario')).status).toBe(200)
    expect((await fetch(`${site.base}/scenario`)).status).toBe(200)
    await expect(builder.getByTestId('page-changes').textContent()).resolves.toMatch(
      /^(Everything published|0 changes not published)/,
    )
    expect(
      await main.getByTestId('block-state').evaluateAll((els) => els.map((e) => e.getAttribute('data-state'))),
    ).toEqual(['no-drafts', 'live', 'live'])
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
    expect(blocks[0].title).toBe('Welcome to the previewed scenario')
    expect(blocks[1].html).toBe('<p>Hello from the <strong>page builder</strong>.</p><p>A second paragraph.</p>')
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
    // The line about the publication went with it: it no longer describes the page.
    expect(await builder.getByRole('status').filter({ hasText: 'Published 2 blocks' }).count()).toBe(0)
    expect((await anonymous(group.body.componentPositions[2]).then((p) => anonymous(p.body.component))).body.alt).toBe(
      'Boats in a blue harbour',
    )

    // The rich text edited where it is, in Lexical with its toolbar: the text as saved, a line added; a draft.
    const textRow = main.getByTestId('position').nth(1)
    await textRow.getByRole('button', { name: 'Edit text' }).click()
    const inPlace = textRow.getByTestId('rich-text-in-place').locator('[contenteditable=true]')
    // A click at the right end of the last paragraph puts the caret after its text.
    const last = inPlace.locator('p', { hasText: 'A second paragraph.' })
    const box = (await last.boundingBox())!
    await last.click({ position: { x: box.width - 2, y: box.height / 2 } })
    await page.keyboard.press('Enter')
    await page.keyboard.type('A third, typed in place.')
    await expect(textRow.getByTestId('live-note').textContent()).resolves.toContain('Saved as a draft')
    await textRow.getByTestId('inline-edit').getByRole('button', { name: 'Save' }).click()
    await textRow.locator('[data-testid=block-state][data-state=live-draft]').waitFor()
    const textIri = group.body.componentPositions[1]
    const liveText = await anonymous(textIri).then((p) => anonymous(p.body.component))
    expect(liveText.body.html).toBe('<p>Hello from the <strong>page builder</strong>.</p><p>A second paragraph.</p>')
    // The editor reads the record through its draft (the contract's default for those who may see drafts).
    const draftText = await page.evaluate(
      async (iri) => (await (await fetch(iri, { headers: { accept: 'application/ld+json' } })).json()).html,
      liveText.body['@id'] as string,
    )
    expect(draftText).toBe(
      '<p>Hello from the <strong>page builder</strong>.</p><p>A second paragraph.</p><p>A third, typed in place.</p>',
    )

    // A heading has no drafts: on this public page, its Quick edit says that saving goes live at once.
    const headingQuick = main.getByTestId('position').nth(0)
    await headingQuick.locator('button', { hasText: 'Quick edit' }).click()
    await expect(
      headingQuick.locator('[data-testid=live-note][data-live-at-once=true]').textContent(),
    ).resolves.toContain('Goes live at once')
    await headingQuick.getByTestId('inline-edit').getByRole('button', { name: 'Cancel' }).click()
    // Moving a block is in the row's menu, which says it goes live at once.
    await headingQuick.getByRole('button', { name: 'More actions' }).click()
    const menu = page.locator('.popup__content')
    await expect(menu.textContent()).resolves.toMatch(/^Goes live at once.*Move up.*Move down.*Remove…/)
    await screenshot(page, 'admin-page-builder-row-menu')
    await page.keyboard.press('Escape')

    // Every field in Payload's drawer, which returns to the builder on save.
    const headingRow = main.getByTestId('position').nth(0)
    await headingRow.getByRole('button', { name: 'Edit', exact: true }).click()
    const drawer = page.locator('.drawer--is-open').last()
    await drawer.locator('#field-title').fill('Welcome, edited in the drawer')
    await drawer.locator('#action-save').click()
    await drawer.waitFor({ state: 'detached' })
    await main.getByTestId('component-link').filter({ hasText: 'Welcome, edited in the drawer' }).waitFor()

    // A navigation link picks the page it leads to in the add form (the site's routes by path).
    await adder.getByRole('button', { name: 'Navigation link', exact: true }).click()
    await form.getByRole('textbox').first().fill('Back home')
    await form.locator('select').selectOption({ label: '/' })
    await form.getByRole('button', { name: 'Add this block' }).click()
    const homeLink = main.getByTestId('component-link').filter({ hasText: 'Back home' })
    await homeLink.waitFor()
    const linkId = (await homeLink.getAttribute('href'))!.split('/').pop()
    const stored = await page.evaluate(
      async (id) =>
        (await fetch(`/_api/component/navigation_links/${id}`, { headers: { accept: 'application/ld+json' } })).json(),
      linkId,
    )
    expect(stored.route).toBe((await anonymous('/_api/_/routes/%2F')).body['@id'])

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
