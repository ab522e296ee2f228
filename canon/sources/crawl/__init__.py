"""A site → the URLs worth fetching and what each fetched page says about itself.

Rooms: ``addresses`` (a link → the URL a crawl knows it by: normalized, tracking parameters
gone; the crawl's scope), ``robots`` (robots.txt through protego), ``sitemaps`` (sitemaps and
sitemap indexes, gzipped or not, through ultimate-sitemap-parser), ``page`` (an HTML page →
its title, H1, description, canonical, robots directives, links and main text), ``crawler``
(the asynchronous crawl over one shared pool, its state kept by the caller).
"""

__all__: list[str] = []
