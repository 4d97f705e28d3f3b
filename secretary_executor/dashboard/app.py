"""The dashboard's Starlette app: page shells, static files and the read-only JSON/SVG API.

Pages are Jinja templates that carry no data (a browser navigation cannot send the bearer
header); the page's script fetches the API with the token and builds the DOM with
``textContent``. Views that read only the ledger run in a worker thread, so a large one never
stalls the hub's event loop (its MCP calls and heartbeats); the fleet view and the stamp read
the live registry too and stay on the loop (they are one query each).

Every API route is GET-only and reads: nothing here can start, stop or change a job.
``secretary serve hub`` mounts the app at ``/dashboard``; ``secretary dashboard`` serves it
alone for a ledger file.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from endpoint_plugins.errors import SiteError
from providers.errors import ProviderError
from providers.wire import JobOutput
from secretary_executor.dashboard import charts, views
from secretary_executor.dashboard.models import Stamp
from secretary_executor.dashboard.security import Authorizer, SecurityHeaders, allowed
from secretary_executor.dashboard.sources import DashboardSource
from secretary_executor.errors import SecretaryError, UnknownJobError

log = logging.getLogger(__name__)

PAGES = {"fleet": "Fleet", "requests": "Requests", "jobs": "Jobs", "cost": "Cost"}
"""The views, by path, with their titles (the first is also served at the root)."""

STATIC = Path(__file__).parent / "static"

Handler = Callable[[Request], Awaitable[Response]]


def templates() -> Environment:
    """Jinja with autoescaping for HTML and SVG, and undefined names as errors."""
    return Environment(
        loader=PackageLoader("secretary_executor.dashboard", "templates"),
        autoescape=select_autoescape(["html", "svg"], default=True),
        undefined=StrictUndefined,
    )


def _json(model: BaseModel) -> Response:
    return Response(model.model_dump_json(), media_type="application/json")


def _error(status: int, message: str) -> JSONResponse:
    headers = {"WWW-Authenticate": 'Bearer realm="secretary"'} if status == 401 else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def dashboard_app(
    source: DashboardSource,
    *,
    authorize: Authorizer | None,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The dashboard for ``source``.

    Args:
        source: a running hub or a ledger.
        authorize: checks a bearer token; None leaves the API open (a loopback hub without
            tokens, whose MCP endpoint is open too).
        allowed_hosts: when given, requests whose ``Host`` is not one of these are refused
            (a loopback server then cannot be read through DNS rebinding).
    """
    env = templates()

    def page(view: str) -> Handler:
        async def render(request: Request) -> Response:
            html = env.get_template(f"{view}.html").render(
                view=view,
                pages=PAGES,
                title=PAGES[view],
                hub=source.name,
                base=request.scope.get("root_path", ""),
            )
            return HTMLResponse(html)

        return render

    def api(build: Callable[[Request], Awaitable[Response]]) -> Handler:
        async def guarded(request: Request) -> Response:
            if not await allowed(request, authorize):
                return _error(401, "a client token is needed: send 'Authorization: Bearer TOKEN'")
            try:
                return await build(request)
            except UnknownJobError as exc:
                return _error(404, exc.message)

        return guarded

    async def stamp(_: Request) -> Response:
        return _json(Stamp(stamp=views.stamp(source)))

    async def fleet(_: Request) -> Response:
        return _json(views.fleet(source))

    async def requests(_: Request) -> Response:
        return _json(await run_in_threadpool(views.requests, source))

    async def request_detail(request: Request) -> Response:
        request_id = request.path_params["request_id"]
        return _json(await run_in_threadpool(views.request_detail, source, request_id))

    async def site_proposal(request: Request) -> Response:
        request_id, site = request.path_params["request_id"], request.path_params["site"]
        return _json(await run_in_threadpool(views.site_proposal, source, request_id, site))

    async def jobs(_: Request) -> Response:
        return _json(await run_in_threadpool(views.jobs, source))

    async def job_detail(request: Request) -> Response:
        job_id = request.path_params["job_id"]
        return _json(await run_in_threadpool(views.job_detail, source, job_id))

    async def job_output(request: Request) -> Response:
        job_id = request.path_params["job_id"]
        views.job_detail(source, job_id)  # an unknown job is a 404, not a site call
        try:
            output = await source.output(job_id)
        except (SecretaryError, SiteError, ProviderError) as exc:
            record = source.ledger.job(job_id)
            output = JobOutput(
                site=record.site, native_id=record.native_id, available=False, note=exc.message
            )
        return _json(output)

    async def cost(_: Request) -> Response:
        return _json(await run_in_threadpool(views.cost, source))

    def timeline() -> str:
        listed = views.jobs(source).jobs
        events = views.job_events(source, [j.job_id for j in listed])
        return charts.timeline_svg(env, listed, events, datetime.now(UTC))

    async def timeline_svg(_: Request) -> Response:
        return Response(await run_in_threadpool(timeline), media_type="image/svg+xml")

    def cost_svg(by_site: bool) -> Handler:
        async def render(_: Request) -> Response:
            view = await run_in_threadpool(views.cost, source)
            rows, title = (
                (view.by_site, "Cost per site") if by_site else (view.by_day, "Cost per day")
            )
            return Response(charts.cost_svg(env, title, rows), media_type="image/svg+xml")

        return render

    routes = [
        Route("/", page(next(iter(PAGES)))),
        *(Route(f"/{view}", page(view)) for view in PAGES),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/stamp", api(stamp)),
        Route("/api/fleet", api(fleet)),
        Route("/api/requests", api(requests)),
        Route("/api/requests/{request_id}", api(request_detail)),
        Route("/api/requests/{request_id}/sites/{site}", api(site_proposal)),
        Route("/api/jobs", api(jobs)),
        Route("/api/jobs/{job_id}", api(job_detail)),
        Route("/api/jobs/{job_id}/output", api(job_output)),
        Route("/api/cost", api(cost)),
        Route("/api/charts/timeline.svg", api(timeline_svg)),
        Route("/api/charts/cost-site.svg", api(cost_svg(by_site=True))),
        Route("/api/charts/cost-day.svg", api(cost_svg(by_site=False))),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    return Starlette(routes=routes, middleware=middleware)
