import ai.framework.IBoard;
import ai.framework.IMove;
import ai.mcts.MCTSOptions;
import ai.mcts.MCTSPlayer;

/**
 * Plays two players of the paper authors' Java code (tpepels/mcts_gameframe, which must be
 * compiled on the class path) against each other in Breakthrough, many games in one JVM, with a
 * fixed number of simulations a move. This file is imcts's own (docs/results.md, Figure 3): it
 * builds each player from a SimGame label (`mcts_s_h_pd20_np10_efv1_im0.6`) as that code's
 * SimGame does, and uses that code's board as referee.
 *
 * Usage: java -cp BUILD:. PaperSelfPlay A_LABEL B_LABEL SIMS GAMES [FIRST_SEED [SIMS_B]]
 * Game i seeds the code's random generator with FIRST_SEED + i (default 1000); A moves first in
 * even games; B runs SIMS_B simulations a move if given (the paper's equal-time rows gave a slow
 * configuration fewer than a fast one), else SIMS. One JSON line per game on stdout.
 */
public class PaperSelfPlay {
    static MCTSPlayer player(String label, int sims) {
        String[] parts = label.split("_");
        if (!parts[0].equals("mcts"))
            throw new IllegalArgumentException("only mcts_... labels: " + label);
        MCTSOptions o = new MCTSOptions();
        o.debug = false;
        o.useHeuristics = false;
        o.solver = false;
        o.setGame("breakthrough");
        for (int i = 1; i < parts.length; i++) {
            String t = parts[i];
            if (t.startsWith("pd")) { o.earlyEval = true; o.pdepth = Integer.parseInt(t.substring(2)); }
            else if (t.equals("h")) o.useHeuristics = true;
            else if (t.startsWith("im")) { o.implicitMM = true; o.imAlpha = Double.parseDouble(t.substring(2)); }
            else if (t.startsWith("det")) { o.detEnabled = true; o.detThreshold = Double.parseDouble(t.substring(3)); }
            else if (t.startsWith("ege")) { o.epsGreedyEval = true; o.egeEpsilon = Double.parseDouble(t.substring(3)); }
            else if (t.equals("s")) o.solver = true;
            else if (t.startsWith("np")) { o.nodePriors = true; o.nodePriorsVisits = Integer.parseInt(t.substring(2)); }
            else if (t.startsWith("efv")) o.efVer = Integer.parseInt(t.substring(3));
            else throw new IllegalArgumentException("tag not supported here: " + t);
        }
        o.fixedSimulations = true;
        o.simulations = sims - 1; // MCTSPlayer runs simulations + 1 in fixed mode
        o.timeInterval = 1000;
        MCTSPlayer p = new MCTSPlayer();
        p.setOptions(o);
        return p;
    }

    public static void main(String[] args) {
        String a = args[0], b = args[1];
        int sims = Integer.parseInt(args[2]), games = Integer.parseInt(args[3]);
        long seed0 = args.length > 4 ? Long.parseLong(args[4]) : 1000;
        int simsB = args.length > 5 ? Integer.parseInt(args[5]) : sims;
        for (int i = 0; i < games; i++) {
            MCTSOptions.r.setSeed(seed0 + i);
            int aSeat = i % 2 == 0 ? 1 : 2;
            MCTSPlayer pa = player(a, sims), pb = player(b, simsB);
            pa.newGame(aSeat, "breakthrough");
            pb.newGame(3 - aSeat, "breakthrough");
            breakthrough.game.Board board = new breakthrough.game.Board();
            board.initialize();
            int plies = 0;
            while (board.checkWin() == IBoard.NONE_WIN) {
                int mover = board.getPlayerToMove();
                MCTSPlayer p = mover == aSeat ? pa : pb;
                p.getMove(board.copy(), null, mover, false, null);
                IMove m = p.getBestMove();
                board.doAIMove(m, mover);
                plies++;
            }
            int w = board.checkWin();
            double score = w == aSeat ? 1 : (w == 1 || w == 2) ? 0 : 0.5;
            System.out.println("{\"index\":" + i + ",\"seed\":" + (seed0 + i) + ",\"a\":\"" + a + "\",\"b\":\"" + b
                    + "\",\"sims\":" + sims + ",\"sims_b\":" + simsB + ",\"a_seat\":" + aSeat + ",\"winner_seat\":" + w + ",\"plies\":" + plies
                    + ",\"a_score\":" + score + "}");
            System.out.flush();
        }
    }
}
