"""*Breakthrough in the Ardennes*'s plug-ins (issue 24): its email kit, :mod:`.email` (the app's
UI kit comes with the next issue). Never imports another ruleset's plug-ins or engine."""
