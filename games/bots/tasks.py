"""Celery tasks of the computer opponents (queue ``bots``): a move, and the resend sweeper
behind it (on the default queue, so that it never waits behind a think)."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_init, worker_process_init

from games.bots import analysis, services, warmup


@worker_init.connect(dispatch_uid="games.bots.warm")
@worker_process_init.connect(dispatch_uid="games.bots.warm_child")
def warm_search(**_: object) -> None:
    """Load the compiled search (numba's on-disk cache) as a worker starts, before it takes
    tasks (threads and solo pools: in its one process; prefork: again in each child, where it
    is already loaded), so that the first computer move thinks no longer than the others."""
    warmup.warm()


@shared_task(name=services.BOT_MOVE_TASK, acks_late=True, ignore_result=True)
def bot_move(game_id: int, ply: int) -> str:
    return services.bot_play(game_id=game_id, ply=ply)


#: The resend sweeper's task (beat: every ``BOT_RESEND_SWEEP_SECONDS``).
RESEND_TASK = "games.bots.resend_due"


@shared_task(name=RESEND_TASK, ignore_result=True)
def bots_resend() -> dict[str, int]:
    """Send again the computers' moves not made a few seconds after they were due."""
    report = services.bots_resend()
    return {"resent": report.resent, "dropped": report.dropped}


@shared_task(name=analysis.ANALYSIS_TASK, acks_late=True, ignore_result=True)
def analysis_run(analysis_id: int, attempt: int) -> str:
    """Analyse the next batch of plies of ``analysis_id`` if it is still at ``attempt`` (then
    the next batch is enqueued as a new task)."""
    return analysis.analysis_run(analysis_id=analysis_id, attempt=attempt)


@shared_task(name=analysis.ANALYSIS_SWEEP_TASK, acks_late=True, ignore_result=True)
def analyses_sweep() -> dict[str, int]:
    """Hand stale analyses to a worker again (beat: every ``ANALYSIS_SWEEP_SECONDS``)."""
    report = analysis.analyses_sweep()
    return {"requeued": report.requeued, "failed": report.failed}
