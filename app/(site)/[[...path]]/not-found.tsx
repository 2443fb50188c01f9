/*
 * A path no live route answers: the page renders this as itself (its server sends it with 404), so it shows
 * without JavaScript. Next.js's own not-found (notFound() anywhere in the site) renders it too, but with two root
 * layouts (the website's and the admin panel's) it sends an error shell that only JavaScript fills
 * (vercel/next.js#59180).
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
