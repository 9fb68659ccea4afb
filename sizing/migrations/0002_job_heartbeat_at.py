from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("sizing", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="job",
            name="heartbeat_at",
            field=models.DateTimeField(
                blank=True, help_text="last sign of life of the worker running it (its lease)", null=True
            ),
        ),
    ]
