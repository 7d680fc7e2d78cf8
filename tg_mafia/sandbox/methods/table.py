"""The table of modelled Bot API methods: one handler each, grouped by subject in the
methods_* modules. A method of the schema missing here is not modelled (see
`SandboxBase.call`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tg_mafia.sandbox.methods.base import CallContext, Handler, PendingQuery
from tg_mafia.sandbox.methods.bot import BotMethods
from tg_mafia.sandbox.methods.forum import ForumMethods
from tg_mafia.sandbox.methods.media import MediaMethods
from tg_mafia.sandbox.methods.members import MemberMethods
from tg_mafia.sandbox.methods.messages import MessageMethods

if TYPE_CHECKING:
    from tg_mafia.sandbox.core import Sandbox
    from tg_mafia.sandbox.world.bots import SandboxBot

__all__ = ["CallContext", "Handler", "Methods", "PendingQuery"]


class Methods(BotMethods, MessageMethods, MediaMethods, MemberMethods, ForumMethods):
    def __init__(self, sandbox: Sandbox, me: SandboxBot) -> None:
        super().__init__(sandbox, me)
        self.handlers: dict[str, Handler] = {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "sendMessage": self.send_message,
            "sendChatAction": self.send_chat_action,
            "sendPhoto": self.send_photo,
            "sendDocument": self.send_document,
            "editMessageText": self.edit_message_text,
            "editMessageCaption": self.edit_message_caption,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "answerCallbackQuery": self.answer_callback_query,
            "deleteMessage": self.delete_message,
            "deleteMessages": self.delete_messages,
            "restrictChatMember": self.restrict_chat_member,
            "banChatMember": self.ban_chat_member,
            "unbanChatMember": self.unban_chat_member,
            "setChatPermissions": self.set_chat_permissions,
            "leaveChat": self.leave_chat,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_chat_administrators,
            "pinChatMessage": self.pin_chat_message,
            "unpinChatMessage": self.unpin_chat_message,
            "createForumTopic": self.create_forum_topic,
            "editForumTopic": self.edit_forum_topic,
            "closeForumTopic": self.close_forum_topic,
            "reopenForumTopic": self.reopen_forum_topic,
            "deleteForumTopic": self.delete_forum_topic,
            "closeGeneralForumTopic": self.close_general_forum_topic,
            "reopenGeneralForumTopic": self.reopen_general_forum_topic,
        }
