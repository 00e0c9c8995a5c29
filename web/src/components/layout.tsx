import { type ReactNode, useEffect, useRef } from "react";
import { followLink, hrefOf, ROUTES, type Route } from "../router";

interface LayoutProps {
  route: Route;
  title: string;
  onSignOut: () => void;
  children: ReactNode;
}

/** Header with the navigation, and the page's main landmark headed by its title. */
export function Layout({ route, title, onSignOut, children }: LayoutProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${title} · Sibyl dashboard`;
    // After an in-page navigation, focus goes to the new page's title, as a page load would.
    if (first.current) first.current = false;
    else headingRef.current?.focus();
  }, [title]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            S
          </span>
          Sibyl
        </div>
        <nav aria-label="Dashboard">
          <ul>
            {ROUTES.map((entry) => (
              <li key={entry.route}>
                <a
                  href={hrefOf(entry.route)}
                  aria-current={entry.route === route ? "page" : undefined}
                  onClick={(event) => followLink(event, entry.route)}
                >
                  {entry.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <h1 ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </main>
    </>
  );
}
