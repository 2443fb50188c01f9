/*
 * A path no live route answers: a 404. With two root layouts (the website's and the admin panel's) Next.js sends
 * its error shell for it and the browser renders this page from the payload (vercel/next.js#59180): without
 * JavaScript the page is blank, the status is right.
 */
export default function NotFound() {
  return (
    <main id="main">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <a href="/">Go to the home page</a>.
      </p>
    </main>
  )
}
