"""Bot API methods about the bot itself: getMe, updates, the webhook, its commands."""

from __future__ import annotations

import re
from typing import Any

from tg_mafia.sandbox.errors import ApiError, bad_request
from tg_mafia.sandbox.methods.base import CallContext, MethodBase

# What Telegram answers a long poll that a newer getUpdates cut short (two pollers).
CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


class BotMethods(MethodBase):
    async def get_me(self, p: dict[str, Any], ctx: CallContext) -> Any:
        """The bot, with every capability the schema lists for getMe: it joins groups and
        reads them all when privacy mode is off; inline mode, business, web apps, topics
        in private chats and the like are not modelled, so they are all false."""
        out = self.me.user.to_api()
        out.update(dict.fromkeys(self.sb.schema.get_me_fields, False))
        out.update(can_join_groups=True, can_read_all_group_messages=not self.me.privacy_mode)
        return out

    async def get_updates(self, p: dict[str, Any], ctx: CallContext) -> Any:
        if self.me.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        queue = self.me.updates
        poll = queue.begin_poll()
        if "offset" in p:
            queue.confirm(p["offset"])
        if "allowed_updates" in p:
            queue.set_allowed(p["allowed_updates"])
        limit = min(100, max(1, int(p.get("limit", 100))))
        timeout = max(0, int(p.get("timeout", 0)))
        deadline = self.sb.clock.now() + timeout
        while not await queue.wait(self.sb.clock.to_real(deadline - self.sb.clock.now())):
            if queue.superseded(poll) or self.sb.clock.now() >= deadline:
                break
        if queue.superseded(poll):
            raise ApiError(409, CONFLICT)
        return queue.peek(limit)

    async def set_webhook(self, p: dict[str, Any], ctx: CallContext) -> Any:
        url = p["url"]
        if not url:
            await self.sb.stop_webhook(self.me)
            return True
        loopback = re.match(r"^http://(127\.0\.0\.1|localhost)(:\d+)?/", url + "/")
        if not url.startswith("https://") and not loopback:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = p.get("secret_token")
        if secret is not None and not _SECRET.match(secret):
            raise bad_request("secret token contains unallowed characters")
        if p.get("drop_pending_updates"):
            self.me.updates.drop_all()
        if "allowed_updates" in p:
            self.me.updates.set_allowed(p["allowed_updates"])
        await self.sb.start_webhook(url, secret, int(p.get("max_connections") or 40), self.me)
        return True

    async def delete_webhook(self, p: dict[str, Any], ctx: CallContext) -> Any:
        await self.sb.stop_webhook(self.me)
        if p.get("drop_pending_updates"):
            self.me.updates.drop_all()
        return True

    async def get_webhook_info(self, p: dict[str, Any], ctx: CallContext) -> Any:
        hook = self.me.webhook
        info: dict[str, Any] = {
            "url": hook.config.url if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self.me.updates.pending),
        }
        if hook and hook.last_error_date is not None:
            info["last_error_date"] = hook.last_error_date
            info["last_error_message"] = hook.last_error_message
        return info

    async def set_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        commands = p["commands"]
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not _COMMAND_NAME.match(command["command"]):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._commands_key(p)
        self.me.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        return self.me.commands.get(self._commands_key(p), [])

    async def delete_my_commands(self, p: dict[str, Any], ctx: CallContext) -> Any:
        self.me.commands.pop(self._commands_key(p), None)
        return True

    @staticmethod
    def _commands_key(p: dict[str, Any]) -> str:
        scope = p.get("scope") or {"type": "default"}
        return f"{scope.get('type')}:{scope.get('chat_id', '')}:{scope.get('user_id', '')}:" + str(
            p.get("language_code", "")
        )
