"""Flask extensions, created without an app and bound in `create_app`."""

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase

from .errors import JsonErrorsApi


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
api = JsonErrorsApi()
babel = Babel()  # the organiser pages' languages (i18n.py)
