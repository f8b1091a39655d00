"""*Breakthrough in the Ardennes*'s plug-ins (issue 24): its email kit (:mod:`.email`) and what
the command line asks of it (:mod:`.selfplay`, :mod:`.queries`, :mod:`.oob`, :mod:`.show`);
its UI kit comes with the app's issue. Never imports another ruleset's plug-ins or engine."""
