"""Every word the bot shows, through the chat's translator: one module per moment of
the game (roles, lobby, night, day, votes, end) and the buttons' words, gathered here so
that a renderer says `texts.night_started(...)`. Beside them: names and seats (names.py,
table.py), times (timefmt.py), and the words of sport's own moments, the settings, /rules
and /stats (sport.py, options.py, rules.py, stats.py).

Functions here build text only (HTML, every user-supplied name escaped by `Table`);
which message is sent or edited, and when, is the presenter's."""

from __future__ import annotations

from tg_mafia.render.texts.buttons import Answer as Answer
from tg_mafia.render.texts.buttons import Popup as Popup
from tg_mafia.render.texts.buttons import button as button
from tg_mafia.render.texts.buttons import help_text as help_text
from tg_mafia.render.texts.buttons import popup as popup
from tg_mafia.render.texts.buttons import popups as popups
from tg_mafia.render.texts.buttons import time_left as time_left
from tg_mafia.render.texts.day import blocked as blocked
from tg_mafia.render.texts.day import check_result as check_result
from tg_mafia.render.texts.day import day_started as day_started
from tg_mafia.render.texts.day import floor as floor
from tg_mafia.render.texts.day import floor_head as floor_head
from tg_mafia.render.texts.day import nominate_prompt as nominate_prompt
from tg_mafia.render.texts.day import nominated as nominated
from tg_mafia.render.texts.day import quiet_night as quiet_night
from tg_mafia.render.texts.day import seconds_left as seconds_left
from tg_mafia.render.texts.day import warned as warned
from tg_mafia.render.texts.day import warning_reason as warning_reason
from tg_mafia.render.texts.end import abandoned_line as abandoned_line
from tg_mafia.render.texts.end import confirm_request as confirm_request
from tg_mafia.render.texts.end import end_screen as end_screen
from tg_mafia.render.texts.end import idle_reminder as idle_reminder
from tg_mafia.render.texts.end import own_result as own_result
from tg_mafia.render.texts.end import suspended_line as suspended_line
from tg_mafia.render.texts.end import winner_line as winner_line
from tg_mafia.render.texts.lobby import lobby as lobby
from tg_mafia.render.texts.lobby import lobby_closed as lobby_closed
from tg_mafia.render.texts.night import RELAY_LIMIT as RELAY_LIMIT
from tg_mafia.render.texts.night import group_tag as group_tag
from tg_mafia.render.texts.night import host_ballot as host_ballot
from tg_mafia.render.texts.night import host_night_move as host_night_move
from tg_mafia.render.texts.night import host_note as host_note
from tg_mafia.render.texts.night import mafia_message as mafia_message
from tg_mafia.render.texts.night import mafia_pick as mafia_pick
from tg_mafia.render.texts.night import night_chosen as night_chosen
from tg_mafia.render.texts.night import night_final as night_final
from tg_mafia.render.texts.night import night_missed as night_missed
from tg_mafia.render.texts.night import night_question as night_question
from tg_mafia.render.texts.night import night_started as night_started
from tg_mafia.render.texts.night import plan_prompt as plan_prompt
from tg_mafia.render.texts.night import plan_set as plan_set
from tg_mafia.render.texts.roles import ROLE_ICONS as ROLE_ICONS
from tg_mafia.render.texts.roles import acquaintance as acquaintance
from tg_mafia.render.texts.roles import all_roles as all_roles
from tg_mafia.render.texts.roles import family as family
from tg_mafia.render.texts.roles import night_title as night_title
from tg_mafia.render.texts.roles import role_description as role_description
from tg_mafia.render.texts.roles import role_label as role_label
from tg_mafia.render.texts.roles import role_name as role_name
from tg_mafia.render.texts.roles import shown_night as shown_night
from tg_mafia.render.texts.roles import side_name as side_name
from tg_mafia.render.texts.roles import variant_name as variant_name
from tg_mafia.render.texts.roles import your_role as your_role
from tg_mafia.render.texts.votes import ballot as ballot
from tg_mafia.render.texts.votes import count as count
from tg_mafia.render.texts.votes import count_result as count_result
from tg_mafia.render.texts.votes import decide_private as decide_private
from tg_mafia.render.texts.votes import decide_public as decide_public
from tg_mafia.render.texts.votes import discussion as discussion
from tg_mafia.render.texts.votes import eliminated as eliminated
from tg_mafia.render.texts.votes import live_board as live_board
from tg_mafia.render.texts.votes import no_vote as no_vote
from tg_mafia.render.texts.votes import tally_lines as tally_lines
from tg_mafia.render.texts.votes import timer_note as timer_note
from tg_mafia.render.texts.votes import topic_closed_pause as topic_closed_pause
from tg_mafia.render.texts.votes import topic_reopened as topic_reopened
from tg_mafia.render.texts.votes import vote_board as vote_board
from tg_mafia.render.texts.votes import vote_result as vote_result
from tg_mafia.render.texts.votes import vote_started as vote_started
